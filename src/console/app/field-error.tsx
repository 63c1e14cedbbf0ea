// The server's error text, shown next to the field that caused it.

export function FieldError(props: { error: string | null }) {
  if (props.error === null) return null;
  return (
    <p class="field-error" role="alert">
      {props.error}
    </p>
  );
}
