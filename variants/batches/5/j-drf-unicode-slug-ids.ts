import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: a Django REST Framework service whose customers name things in
 * their own languages. Workspaces and taxonomies are keyed by a slug of their name, a
 * `SlugField(unique=True, allow_unicode=True)` filled by `django.utils.text.slugify(name,
 * allow_unicode=True)` when the row is created (NFKC, lower case, every character that is not a
 * word character, space or hyphen dropped, runs of spaces and hyphens made one hyphen), with `-2`,
 * `-3`, ... appended when the slug is taken (django-autoslug, or the `unique_slugify` helper every
 * project copies). The viewsets set `lookup_field = 'slug'` and the serializers expose the slug as
 * `id`, so `Müller & Söhne GmbH` is `müller-söhne-gmbh`, `東京デザイン株式会社` is itself, and
 * Yoshinoya's `𠮷` (U+20BB7, outside the Basic Multilingual Plane) survives too. DRF's JSON renderer
 * writes them as UTF-8 (`UNICODE_JSON = True`); its router matches `[^/.]+` for the slug, and a
 * slug never holds a dot. Django decodes the percent-encoded path (`/api/v1/workspaces/
 * m%C3%BCller-s%C3%B6hne-gmbh`) before the lookup. Discourse (`slug_generation_method: encoded`),
 * MediaWiki page titles and Wagtail's unicode slugs put non-ASCII identifiers in URLs the same way.
 * Here the main account's workspaces are `main` (the sign-up workspace keeps its name `Main`),
 * `müller-söhne-gmbh`, `ærøskøbing-logistik-aps`, `東京デザイン株式会社`; its taxonomies
 * `lebensmittel-getränke` (the first of the list), `électronique-grand-public`, `𠮷野家-仕入れ`.
 * The second account's `Main` and `Lebensmittel & Getränke` got `main-2` and
 * `lebensmittel-getränke-2`: a slug is unique across the deployment, not per account.
 *
 * Why it is conformant:
 * - Resources and their fields: an `id` is a "string", an "identifier"; its format is not stated
 *   (open point `id-format`). A slug with letters outside ASCII is a string (RES-1 for workspaces;
 *   names stay strings too). Every id is unique in its collection, across accounts even (RES-6).
 * - Retrieval (RES-4, RES-5, RES-7): each listed workspace and taxonomy is retrieved at the
 *   profile's path with its id in the `{id}` segment, percent-encoded as UTF-8 as RFC 3986 (3.3,
 *   2.5) has it for a non-ASCII character; the route decodes it and finds the same resource, whose
 *   members equal the list item's. A field's `taxonomy_id` and a taxonomy's `field_ids` name the
 *   same ids, so the catalogue stays consistent.
 * - Submissions (SUB-1, SUB-2, SUB-4, ERR-3): the first taxonomy of the list, `lebensmittel-
 *   getränke`, is a valid `taxonomy_id` of the body (a JSON string, any Unicode) and a valid value
 *   of the list's `taxonomy_id` filter (the query decoded as UTF-8, WHATWG URL and RFC 3986 3.4);
 *   the workspace the profile leaves to "the first of the list" is `main`. Creation answers 201,
 *   invalid values 422 naming the input, omitted fields 400, the filter narrows: all as the
 *   reference, since only the ids' spelling changed.
 * - Account scoping (AUTH-6): the second account's workspaces and taxonomies have ids the main
 *   account has not (`main-2`, ...), so asked for with the main key they are 404
 *   `not_found_error` and they appear in no list of it.
 * - GEN-1: every body is JSON in UTF-8 (RFC 8259 section 8.1); nothing else changes.
 */

/** `django.utils.text.slugify(value, allow_unicode=True)`: Python's `\w` is letters, numbers and `_`. */
function slugify(value: string): string {
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\s-]/gu, '')
    .replace(/[-\s]+/gu, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}

/** The names the accounts gave their workspaces and taxonomies, by account (in the store's order). */
const WORKSPACE_NAMES: readonly (readonly string[])[] = [
  ['Main', 'Müller & Söhne GmbH', 'Ærøskøbing Logistik ApS', '東京デザイン株式会社'],
  ['Main', "Société Générale d'Éclairage", 'İstanbul Ticaret A.Ş.', 'Zürich Versicherungs-Gruppe'],
];
const TAXONOMY_NAMES: readonly (readonly string[])[] = [
  ['Lebensmittel & Getränke', 'Électronique grand public', '𠮷野家 仕入れ'],
  ['Lebensmittel & Getränke', 'Ελληνικά προϊόντα', 'Ürünler ve Hizmetler'],
];

export default defineVariant({
  description:
    'a Django REST Framework service keyed by unicode slugs (slugify(name, allow_unicode=True), unique across the deployment with -2 appended): workspace and taxonomy ids such as müller-söhne-gmbh, 東京デザイン株式会社, 𠮷野家-仕入れ, retrieved at their percent-encoded path and accepted as taxonomy_id in bodies and filters',
  openPoint: 'id-format',
  atRisk: ['RES-1', 'RES-4', 'RES-5', 'RES-6', 'RES-7', 'SUB-1', 'SUB-2', 'SUB-4', 'ERR-3', 'AUTH-6', 'GEN-1'],
  modify: ({ state }) => {
    const taken = { workspace: new Set<string>(), taxonomy: new Set<string>() };
    /** The slug of a name, made unique across the deployment as the slug helpers do. */
    const uniqueSlug = (kind: keyof typeof taken, name: string): string => {
      const base = slugify(name) || kind;
      let slug = base;
      for (let n = 2; taken[kind].has(slug); n++) slug = `${base}-${n}`;
      taken[kind].add(slug);
      return slug;
    };

    state.store.accounts.forEach((account, a) => {
      const { workspaces, taxonomies, fields } = account.data;
      workspaces.forEach((workspace, w) => {
        workspace.name = WORKSPACE_NAMES[a]?.[w] ?? workspace.name;
        workspace.id = uniqueSlug('workspace', workspace.name);
      });
      const renamed = new Map<string, string>();
      taxonomies.forEach((taxonomy, t) => {
        taxonomy.name = TAXONOMY_NAMES[a]?.[t] ?? taxonomy.name;
        const id = uniqueSlug('taxonomy', taxonomy.name);
        renamed.set(taxonomy.id, id);
        taxonomy.id = id;
      });
      for (const field of fields) field.taxonomy_id = renamed.get(field.taxonomy_id) ?? field.taxonomy_id;
    });
  },
});
