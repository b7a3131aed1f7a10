import type { Locale } from './locale';

/**
 * The text of every error code, in both languages. A module adds its codes in its own file and
 * registers them with `addMessages` so that this file does not grow into a merge hot spot.
 */
const messages: Record<string, { en: string; ro: string }> = {
  missing_api_key: {
    en: 'No API key provided. Send it as `Authorization: Bearer <API_KEY>`.',
    ro: 'Lipsește cheia API. Trimiteți-o ca `Authorization: Bearer <API_KEY>`.',
  },
  invalid_api_key: { en: 'The API key is not valid.', ro: 'Cheia API nu este validă.' },
  expired_api_key: { en: 'The API key has expired.', ro: 'Cheia API a expirat.' },
  ip_restricted: {
    en: 'This API key may not be used from address {ip}.',
    ro: 'Această cheie API nu poate fi folosită de la adresa {ip}.',
  },
  insufficient_permissions: {
    en: 'The API key lacks the permission `{scope}` this request needs.',
    ro: 'Cheii API îi lipsește permisiunea `{scope}` necesară acestei cereri.',
  },
  rate_limit_exceeded: {
    en: 'Too many requests. Try again in {retry_after} seconds.',
    ro: 'Prea multe cereri. Încercați din nou peste {retry_after} secunde.',
  },
  invalid_json: { en: 'The request body is not valid JSON.', ro: 'Corpul cererii nu este JSON valid.' },
  unsupported_media_type: {
    en: 'The request body must be sent as application/json.',
    ro: 'Corpul cererii trebuie trimis ca application/json.',
  },
  body_too_large: { en: 'The request body is too large.', ro: 'Corpul cererii este prea mare.' },
  validation_error: {
    en: 'Some members of the request are not valid.',
    ro: 'Unele câmpuri ale cererii nu sunt valide.',
  },
  resource_missing: { en: 'No such resource: `{param}`.', ro: 'Resursa nu există: `{param}`.' },
  route_not_found: { en: 'No such endpoint: {method} {url}.', ro: 'Acest endpoint nu există: {method} {url}.' },
  resource_deleted: {
    en: 'This resource has been deleted and can no longer be changed.',
    ro: 'Această resursă a fost ștearsă și nu mai poate fi modificată.',
  },
  idempotency_conflict: {
    en: 'This Idempotency-Key was already used with a different request body.',
    ro: 'Această cheie Idempotency-Key a fost deja folosită cu un alt corp al cererii.',
  },
  idempotency_in_progress: {
    en: 'A request with this Idempotency-Key is still being processed. Retry shortly.',
    ro: 'O cerere cu această cheie Idempotency-Key este încă în lucru. Reîncercați în curând.',
  },
  invalid_idempotency_key: {
    en: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
    ro: 'Antetul Idempotency-Key trebuie să aibă între 1 și 255 de caractere ASCII afișabile.',
  },
  bad_request: { en: 'The request is malformed.', ro: 'Cererea este formată greșit.' },
  service_unavailable: {
    en: 'The service is shutting down. Retry in a moment.',
    ro: 'Serviciul se oprește. Reîncercați peste câteva momente.',
  },
  work_point_exists: {
    en: 'The company already has a work point with this name.',
    ro: 'Firma are deja un punct de lucru cu acest nume.',
  },
  work_point_in_use: {
    en: 'This work point still has API keys or documents and cannot be deleted.',
    ro: 'Acest punct de lucru are încă chei API sau documente și nu poate fi șters.',
  },
  forbidden: { en: 'You are not allowed to do this.', ro: 'Nu aveți dreptul să faceți această operație.' },
  service_busy: {
    en: 'The service is busy and saved nothing of this request. Try again in a moment.',
    ro: 'Serviciul este ocupat și nu a salvat nimic din această cerere. Încercați din nou peste o clipă.',
  },
  api_error: {
    en: 'Something went wrong on our side. The request id helps us find it.',
    ro: 'A apărut o eroare la noi. Identificatorul cererii ne ajută să o găsim.',
  },
};

export type MessageCode = string;

export function addMessages(more: Record<string, { en: string; ro: string }>): void {
  for (const [code, text] of Object.entries(more)) {
    if (messages[code] && (messages[code].en !== text.en || messages[code].ro !== text.ro)) {
      throw new Error(`error code ${code} registered twice with different texts`);
    }
    messages[code] = text;
  }
}

export function hasMessage(code: string): boolean {
  return code in messages;
}

export function allMessageCodes(): string[] {
  return Object.keys(messages);
}

/** Both texts of a code, for tests and documentation; undefined when the code is unknown. */
export function messageTexts(code: string): { en: string; ro: string } | undefined {
  const text = messages[code];
  return text ? { ...text } : undefined;
}

export function messageFor(code: string, locale: Locale, vars: Record<string, string | number> = {}): string {
  const text = messages[code]?.[locale] ?? messages.api_error![locale];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
