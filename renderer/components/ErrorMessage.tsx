import { useI18n } from '../i18n/I18nProvider';
import { describeError, errorOf, fieldInWords, inLanguage } from '../lib/errors';

/** An error in words, with the fields it names (a validation error's `fields`), for dialogs and forms. */
export function ErrorMessage({ error }: { error: unknown }) {
  const { t, language } = useI18n();
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
              {/* The field in words and the message in the reader's language: never a member's name or both languages. */}
              {fieldInWords(field, t)}: {inLanguage(String(message), language)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
