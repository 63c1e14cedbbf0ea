// A command as it is sent and logged: its name, then its arguments, each a byte string
// (one char per byte, latin1). Shared by rest/, commands/, engine/ and redis/, so it sits
// beside them and imports nothing.

export type Args = readonly string[];
