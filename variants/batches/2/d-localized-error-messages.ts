import { defineVariant } from '../../variant.js';
import type { FastifyReply } from 'fastify';

/*
 * Where this happens in the field: dedicated deployments (API document, What the service does 1)
 * for customers in Germany, Austria or France, run with a default locale of the customer's
 * language, whose integrators and operators read error messages in logs and tickets; large
 * enterprise APIs localise `message` the same way (SAP Gateway answers in the language of
 * Accept-Language / the logon language). The service negotiates Accept-Language (RFC 9110 12.5.4)
 * among German, French and English; without the header, or with none of those, it answers in the
 * deployment's default locale, German. Error responses say which language they are in
 * (Content-Language) and that it depends on the request (Vary: Accept-Language). Every error of
 * every route is covered: the 401s (both shapes), 403, 404, 405, 400s, 422s, 429, 500. Messages the
 * catalogue has no translation for fall back to English, as i18n layers do.
 *
 * Why it is conformant: `message` is "human-readable text; its wording may change between
 * versions, so do not branch on it" (Errors, error object) and "Message texts may change ...;
 * codes and types are the stable interface" (Versioning 2); the document fixes no language.
 * Nothing else of a body changes: type, code, param and path (and its absence on the 429) are the
 * reference's, as are statuses and the 401 shape. The 429's message still "states the wait in
 * seconds" (Limits): the same whole number as Retry-After, followed by the word for seconds in the
 * chosen language ("Bitte in 37 Sekunden erneut versuchen."), and no other number. Bodies stay UTF-8
 * JSON under the reference's media type. Reading taken: "a message that states the wait in
 * seconds" asks for the number of seconds in the message, not for English.
 */

type Locale = 'de' | 'fr' | 'en';
const DEFAULT_LOCALE: Locale = 'de';
const SUPPORTED: readonly Locale[] = ['de', 'fr', 'en'];

/** The locale of the highest q-value the service has; the default when none fits (or no header). */
export function negotiateLocale(header: string | string[] | undefined): Locale {
  if (header === undefined) return DEFAULT_LOCALE;
  let best: Locale | null = null;
  let bestWeight = 0;
  for (const part of [header].flat().join(',').split(',')) {
    const [tag = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => /^q\s*=/i.test(p));
    const weight = q === undefined ? 1 : Number(q.replace(/^q\s*=\s*/i, ''));
    if (!(weight > 0)) continue;
    const language = tag.toLowerCase().split('-')[0] ?? '';
    const locale = language === '*' ? DEFAULT_LOCALE : SUPPORTED.find((l) => l === language);
    if (locale !== undefined && weight > bestWeight) {
      best = locale;
      bestWeight = weight;
    }
  }
  return best ?? DEFAULT_LOCALE;
}

type Translation = Record<Exclude<Locale, 'en'>, string>;

const NOUNS: Record<string, Translation> = {
  Resource: { de: 'Ressource', fr: 'Ressource' },
  Workspace: { de: 'Workspace', fr: 'Espace de travail' },
  'Governance model': { de: 'Governance-Modell', fr: 'Modèle de gouvernance' },
  Taxonomy: { de: 'Taxonomie', fr: 'Taxonomie' },
  Field: { de: 'Feld', fr: 'Champ' },
  Picklist: { de: 'Auswahlliste', fr: 'Liste de choix' },
  Record: { de: 'Datensatz', fr: 'Enregistrement' },
  'API key': { de: 'API-Schlüssel', fr: 'Clé API' },
};

/**
 * The message catalogue, keyed by the English text the handlers produce (the reference's own
 * wording; in the field these are message ids): each entry matches one message and builds it anew.
 */
const CATALOGUE: readonly (readonly [RegExp, (m: RegExpExecArray) => Translation | null])[] = [
  [
    /^An Authorization header with a Bearer key is required\.$/,
    () => ({ de: 'Ein Authorization-Header mit einem Bearer-Schlüssel ist erforderlich.', fr: 'Un en-tête Authorization avec une clé Bearer est requis.' }),
  ],
  [
    /^The Authorization header must be "Bearer <API_KEY>"\.$/,
    () => ({ de: 'Der Authorization-Header muss die Form „Bearer <API_KEY>“ haben.', fr: 'L’en-tête Authorization doit avoir la forme « Bearer <API_KEY> ».' }),
  ],
  [/^The API key is incorrectly formatted\.$/, () => ({ de: 'Der API-Schlüssel ist falsch formatiert.', fr: 'La clé API est mal formée.' })],
  [
    /^The API key is invalid or has been revoked\.$/,
    () => ({ de: 'Der API-Schlüssel ist ungültig oder wurde widerrufen.', fr: 'La clé API est invalide ou a été révoquée.' }),
  ],
  [
    /^Too many requests\. Retry after (\d+) seconds?\.$/,
    (m) => {
      const seconds = m[1]!;
      const one = seconds === '1';
      return {
        de: `Zu viele Anfragen. Bitte in ${seconds} ${one ? 'Sekunde' : 'Sekunden'} erneut versuchen.`,
        fr: `Trop de requêtes. Réessayez dans ${seconds} ${one ? 'seconde' : 'secondes'}.`,
      };
    },
  ],
  [/^The request URL cannot be read: /, () => ({ de: 'Die Anfrage-URL kann nicht gelesen werden.', fr: 'L’URL de la requête est illisible.' })],
  [
    /^(\S+) is not supported on (.*)\.$/s,
    (m) => ({ de: `Die Methode ${m[1]!} wird für ${m[2]!} nicht unterstützt.`, fr: `La méthode ${m[1]!} n’est pas prise en charge sur ${m[2]!}.` }),
  ],
  [/^No endpoint (.*)\.$/s, (m) => ({ de: `Es gibt keinen Endpunkt ${m[1]!}.`, fr: `Aucun point d’accès ${m[1]!}.` })],
  [/^Content-Type must be application\/json\.$/, () => ({ de: 'Content-Type muss application/json sein.', fr: 'Le Content-Type doit être application/json.' })],
  [/^The request body is too large\.$/, () => ({ de: 'Der Anfragekörper ist zu groß.', fr: 'Le corps de la requête est trop volumineux.' })],
  [
    /^The request body is not valid JSON\.$/,
    () => ({ de: 'Der Anfragekörper ist kein gültiges JSON.', fr: 'Le corps de la requête n’est pas un JSON valide.' }),
  ],
  [/^Unexpected server error\.$/, () => ({ de: 'Unerwarteter Serverfehler.', fr: 'Erreur inattendue du serveur.' })],
  [
    /^API keys cannot reach admin endpoints\.$/,
    () => ({ de: 'API-Schlüssel haben keinen Zugriff auf Admin-Endpunkte.', fr: 'Les clés API n’ont pas accès aux points d’accès d’administration.' }),
  ],
  [/^Missing required parameter: (.*)\.$/s, (m) => ({ de: `Pflichtparameter fehlt: ${m[1]!}.`, fr: `Paramètre obligatoire manquant : ${m[1]!}.` })],
  [
    /^(.+) not found\.$/s,
    (m) => {
      const noun = NOUNS[m[1]!];
      return noun ? { de: `${noun.de} nicht gefunden.`, fr: `${noun.fr} introuvable.` } : null;
    },
  ],
  [/^(page|limit) must be given once\.$/, (m) => ({ de: `${m[1]!} darf nur einmal angegeben werden.`, fr: `${m[1]!} ne doit être indiqué qu’une fois.` })],
  [/^(page|limit) must be an integer\.$/, (m) => ({ de: `${m[1]!} muss eine ganze Zahl sein.`, fr: `${m[1]!} doit être un nombre entier.` })],
  [/^page starts at 1\.$/, () => ({ de: 'page beginnt bei 1.', fr: 'page commence à 1.' })],
  [/^limit must be between 1 and (\d+)\.$/, (m) => ({ de: `limit muss zwischen 1 und ${m[1]!} liegen.`, fr: `limit doit être compris entre 1 et ${m[1]!}.` })],
  [/^The body must be a JSON object\.$/, () => ({ de: 'Der Anfragekörper muss ein JSON-Objekt sein.', fr: 'Le corps de la requête doit être un objet JSON.' })],
  [/^(\w+) must be a non-empty string\.$/, (m) => ({ de: `${m[1]!} muss eine nicht leere Zeichenkette sein.`, fr: `${m[1]!} doit être une chaîne non vide.` })],
  [
    /^(\w+) must be a workspace identifier\.$/,
    (m) => ({ de: `${m[1]!} muss die Kennung eines Workspace sein.`, fr: `${m[1]!} doit être l’identifiant d’un espace de travail.` }),
  ],
  [
    /^workspace_id names no workspace of this account\.$/,
    () => ({ de: 'workspace_id bezeichnet keinen Workspace dieses Kontos.', fr: 'workspace_id ne désigne aucun espace de travail de ce compte.' }),
  ],
  [
    /^workspace_id differs from the workspace in the query\.$/,
    () => ({ de: 'workspace_id weicht vom Workspace der Query ab.', fr: 'workspace_id diffère de l’espace de travail indiqué dans la requête.' }),
  ],
  [
    /^taxonomy_id names no taxonomy of this account\.$/,
    () => ({ de: 'taxonomy_id bezeichnet keine Taxonomie dieses Kontos.', fr: 'taxonomy_id ne désigne aucune taxonomie de ce compte.' }),
  ],
  [/^rows must be an array\.$/, () => ({ de: 'rows muss ein Array sein.', fr: 'rows doit être un tableau.' })],
  [/^(rows\[\d+\](?:\.data)?) must be an object\.$/, (m) => ({ de: `${m[1]!} muss ein Objekt sein.`, fr: `${m[1]!} doit être un objet.` })],
];

/** The message in `locale`; the English text where the catalogue has none. */
export function translate(message: string, locale: Locale): string {
  if (locale === 'en') return message;
  for (const [pattern, build] of CATALOGUE) {
    const match = pattern.exec(message);
    if (!match) continue;
    const translated = build(match);
    if (translated) return translated[locale];
  }
  return message;
}

function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  const values =
    current === undefined
      ? []
      : [current]
          .flat()
          .join(',')
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== '');
  if (values.some((v) => v === '*' || v.toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', [...values, field].join(', '));
}

export default defineVariant({
  description:
    'error messages are localised by Accept-Language (German, French, English), in German by default, with Content-Language and Vary: Accept-Language',
  openPoint: 'error-codes',
  atRisk: ['RATE-3', 'AUTH-7', 'AUTH-8', 'ERR-1', 'ERR-2', 'ERR-5', 'GEN-1', 'GEN-5'],
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
      if (typeof error !== 'object' || error === null) return payload;
      const fields = error as { message?: unknown };
      if (typeof fields.message !== 'string') return payload;
      const locale = negotiateLocale(req.headers['accept-language']);
      addVary(reply, 'Accept-Language');
      const message = translate(fields.message, locale);
      // The language the message is actually in: English where the catalogue fell back.
      reply.header('content-language', message === fields.message ? 'en' : locale);
      if (message === fields.message) return payload;
      fields.message = message;
      reply.removeHeader('content-length');
      return JSON.stringify(body);
    });
  },
});
