import { useT } from '../i18n/I18nProvider';
import { describeError, errorOf } from '../lib/errors';

/** An error in words, with the fields it names (a validation error's `fields`), for dialogs and forms. */
export function ErrorMessage({ error }: { error: unknown }) {
  const t = useT();
  if (!error) return null;
  const fields = errorOf(error)?.fields ?? {};
  const entries = Object.entries(fields);
  return (
    <div className="error-text grow small" role="alert" data-testid="error-message">
      {describeError(error, t)}
      {entries.length > 0 ? (
        <ul style={{ margin: '4px 0 0', paddingLeft: 18 }}>
          {entries.map(([field, message]) => (
            <li key={field}>
              <code>{field}</code>: {message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
