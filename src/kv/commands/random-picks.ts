// The bound on the random-element commands (HRANDFIELD, SRANDMEMBER, ZRANDMEMBER) with a
// negative count, which draws that many with repetition whatever the collection's size.

/**
 * The most elements a negative count picks in one reply. Redis builds a reply of any size;
 * Larder answers through one JSON body, so it refuses past this (a `deviates` entry).
 */
export const MAX_RANDOM_PICKS = 1 << 24;
