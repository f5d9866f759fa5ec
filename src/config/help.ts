import { DEFAULT_MAX_SUBMISSIONS } from '../broker/submission-cap.js';
import { DEFAULT_MAX_KEYS } from '../keys/pool-size.js';
import type { FlagName } from './settings.js';

/** The groups `--help` lists the flags in, in this order. */
const GROUPS = {
  target: 'Target',
  selection: 'Selection',
  reports: 'Reports',
  safety: 'Safety (what a run may do to the target)',
  certification: 'Certification',
  other: 'Other',
} as const;

interface FlagHelp {
  readonly group: keyof typeof GROUPS;
  /** The value's placeholder, naming its unit; absent for a switch. */
  readonly value?: string;
  /** One line. */
  readonly description: string;
  /** The default, in the value's unit, or what happens without the flag. */
  readonly default?: string;
  /** The environment variable that sets it too. */
  readonly env?: string;
}

/**
 * What `--help` says of each flag of a run: a total record, so that a flag the parser accepts
 * (`FLAGS`, settings.ts) and `--help` leaves out does not compile.
 */
export const FLAG_HELP: Record<FlagName, FlagHelp> = {
  'base-url': {
    group: 'target',
    value: 'URL',
    description: 'the deployment under test, without /api/v1',
    default: 'the embedded reference',
    env: 'CONFORMANCE_BASE_URL',
  },
  profile: {
    group: 'target',
    value: 'FILE',
    description: 'the deployment profile: the facts the API document leaves open',
    default: 'the document alone',
    env: 'CONFORMANCE_PROFILE',
  },
  header: {
    group: 'target',
    value: '"Name: value"',
    description: 'an extra header on every request (a gateway token); repeatable',
    env: 'CONFORMANCE_EXTRA_HEADERS, one a line',
  },
  timeout: {
    group: 'target',
    value: 'DURATION',
    description: 'the bound on each request, connection and TLS included (a bare number: milliseconds)',
    default: '10s',
  },
  only: { group: 'selection', value: 'IDS', description: 'run only these clauses or families, comma-separated (PAG, KEY-2)' },
  skip: { group: 'selection', value: 'IDS', description: 'leave out these clauses or families' },
  seed: {
    group: 'selection',
    value: 'N',
    description: 'the seed of generated inputs, to replay a run',
    default: 'a fresh one, printed',
    env: 'CONFORMANCE_SEED',
  },
  'property-runs': { group: 'selection', value: 'N', description: 'generated cases a property', default: '100' },
  explore: {
    group: 'selection',
    value: 'N',
    description: 'sequences of operations the stateful explorer draws beyond its cover (0: the cover alone)',
    default: 'one for every 25 cases a property: 4',
  },
  'dry-run': { group: 'selection', description: 'check the settings and the target, print the plan (requests, keys, submissions, time), send no write' },
  'report-dir': { group: 'reports', value: 'DIR', description: 'where the reports go', default: 'reports', env: 'CONFORMANCE_REPORT_DIR' },
  baseline: { group: 'reports', value: 'FILE', description: 'an earlier conformance.json: exit 1 only for a regression' },
  strict: { group: 'reports', description: 'a failed SHOULD clause fails the run too' },
  'require-complete': { group: 'reports', description: 'a run that left a MUST clause unjudged is inconclusive (exit 2)' },
  'read-only': { group: 'safety', description: 'send only GET, HEAD and OPTIONS (fit for production; the run is incomplete)' },
  'leave-keys': { group: 'safety', description: 'create keys even where the run cannot delete them; the report names each one left' },
  'max-keys': {
    group: 'safety',
    value: 'N',
    description: 'keys the run spreads its work over, the configured one included',
    default: `${DEFAULT_MAX_KEYS}, where one key would be slow`,
    env: 'CONFORMANCE_MAX_KEYS',
  },
  'max-submissions': {
    group: 'safety',
    value: 'N',
    description: 'submissions the run may create (the API cannot delete them)',
    default: String(DEFAULT_MAX_SUBMISSIONS),
    env: 'CONFORMANCE_MAX_SUBMISSIONS',
  },
  'teardown-timeout': {
    group: 'safety',
    value: 'DURATION',
    description: 'after a signal, the bound on deleting the keys the run created (a bare number: seconds)',
    default: '10s',
  },
  certify: { group: 'certification', description: 'a certification run: full, signed, every MUST clause judged; refuses what narrows it' },
  'sign-key': {
    group: 'certification',
    value: 'FILE',
    description: 'the Ed25519 key (PEM) that signs manifest.json',
    default: 'unsigned',
    env: 'CONFORMANCE_SIGN_KEY_FILE, or the PEM in CONFORMANCE_SIGN_KEY',
  },
  help: { group: 'other', description: 'print this help' },
};

/** The commands, with their own arguments, as `--help` lists them. */
const COMMANDS: readonly (readonly [string, string])[] = [
  ['run', 'the whole suite against the target (the default)'],
  ['init --base-url URL [--out FILE]', 'probe a deployment and write a draft profile'],
  ['cleanup [--key-path PATH]', 'delete the keys runs left on the target (same settings and report folder)'],
  ['diff OLD.json NEW.json [--require-complete]', 'compare two reports; exit 1 when NEW regressed'],
  ['rerun REPORT.json', 'repeat exactly the run a report describes, with your own key'],
  ['verify DIR [--public-key FILE] [--expect-suite DIGEST]', 'check a report folder against its manifest and signature'],
  ['fleet FLEET.json [--concurrency N]', 'run many deployments and write the fleet report'],
  ['fleet --merge DIR... [--public-key FILE]', 'merge report folders made by separate jobs'],
  ['ci run|cleanup', 'the steps of the GitHub Action and the GitLab component (inputs from CONFORMANCE_ACTION_*)'],
  ['--suite-digest', "print this suite's digest, to compare with a report's"],
];

const EXAMPLES = [
  ['npm run conformance -- --only PAG --seed 42', 'the pagination clauses against the embedded reference, inputs replayed'],
  ['CONFORMANCE_API_KEY=... npx conformance --base-url https://api.example.com --profile my.json --timeout 30s', 'a deployment, judged with its profile'],
] as const;

function flagLine(name: FlagName): string[] {
  const f = FLAG_HELP[name];
  const spelled = `${name === 'help' ? '-h, ' : ''}--${name}${f.value ? ` ${f.value}` : ''}`;
  const tail = [f.default ? `default: ${f.default}` : '', f.env ? `env: ${f.env}` : ''].filter(Boolean).join('; ');
  return [`  ${spelled.padEnd(30)}${f.description}${tail ? ` (${tail})` : ''}`];
}

/** `conformance --help`: usage, commands, the flags by group with unit and default, where keys come from, two examples. */
export function usage(): string {
  const lines = [
    'usage: conformance [COMMAND] [FLAGS]',
    '',
    'Tells, with evidence, whether an implementation of API v1 at a base URL conforms.',
    'Exit status: 0 conformant, 1 non-conformant, 2 inconclusive (a wrong setting, an unreachable target); 130, 143, 129 on a signal.',
    '',
    'Commands:',
    ...COMMANDS.map(([command, what]) => `  ${command.padEnd(56)}${what}`),
  ];
  for (const [group, title] of Object.entries(GROUPS)) {
    lines.push('', `${title}:`);
    for (const name of Object.keys(FLAG_HELP) as FlagName[]) if (FLAG_HELP[name].group === group) lines.push(...flagLine(name));
  }
  lines.push(
    '',
    'DURATION: a number with a unit, ms, s or m (10s, 1500ms, 2m).',
    'Keys come from the environment (or .env) only, never a flag: CONFORMANCE_API_KEY, CONFORMANCE_OTHER_ACCOUNT_API_KEY.',
    '',
    'Examples:',
    ...EXAMPLES.flatMap(([command, what]) => [`  # ${what}`, `  ${command}`]),
  );
  return lines.join('\n');
}
