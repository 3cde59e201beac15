/** A titled code block. */
export function Code({ children, title }: { children: string; title?: string }) {
  return (
    <>
      {title ? (
        <p className="muted" style={{ margin: '10px 0 0', fontSize: '0.9em' }}>
          {title}
        </p>
      ) : null}
      <pre tabIndex={0}>
        <code>{children}</code>
      </pre>
    </>
  );
}
