#!/usr/bin/perl
# Independent ("blind") implementation of the public REST API v1 for
# workspaces, governance models, submissions and records.
#
# Mojolicious 9.x, served by Mojo::Server::Daemon in the foreground, one
# process, state in memory.  See README.md for the choices made where the API
# document leaves a fact open ("not shown"), and profile.json for the
# deployment profile that declares them.
use strict;
use warnings;
use utf8;

use B            ();
use Digest::SHA  qw(sha256 sha256_hex);
use Getopt::Long ();
use POSIX        qw(floor ceil strftime);
use Time::HiRes  ();
use IO::Handle   ();

use Mojolicious;
use Mojo::IOLoop;
use Mojo::Server::Daemon;
use Mojo::JSON qw(encode_json decode_json true false);

# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

my $USAGE = "usage: $0 [--port PORT] [--window-seconds N] [--host HOST]\n"
  . "  --port            TCP port to listen on (default 0: the kernel picks a free one)\n"
  . "  --window-seconds  rate-limit window length in seconds (default 60)\n"
  . "  --host            address to bind (default 127.0.0.1)\n";

my ($PORT, $WINDOW, $HOST, $HELP) = (0, 60, '127.0.0.1', 0);
{
  my @warnings;
  local $SIG{__WARN__} = sub { push @warnings, @_ };
  Getopt::Long::Configure(qw(no_auto_abbrev no_ignore_case no_bundling));
  my $ok = Getopt::Long::GetOptions(
    'port=s'           => \$PORT,
    'window-seconds=s' => \$WINDOW,
    'host=s'           => \$HOST,
    'help|h'           => \$HELP,
  );
  if ($HELP) { print $USAGE; exit 0 }
  my @bad;
  push @bad, @warnings                                                       unless $ok;
  push @bad, "unexpected argument(s): @ARGV\n"                               if @ARGV;
  push @bad, "--port must be an integer from 0 to 65535\n"
    if !defined $PORT || ($PORT !~ /\A[0-9]{1,5}\z/ || $PORT > 65535);
  push @bad, "--window-seconds must be an integer from 1 to 86400\n"
    if !defined $WINDOW || $WINDOW !~ /\A[0-9]{1,6}\z/ || $WINDOW < 1 || $WINDOW > 86400;
  push @bad, "--host must not be empty\n" if !defined $HOST || $HOST eq '';
  if (@bad) { print STDERR @bad, $USAGE; exit 2 }
  $PORT += 0;
  $WINDOW += 0;
}

# ---------------------------------------------------------------------------
# Constants (the facts this deployment declares in profile.json)
# ---------------------------------------------------------------------------

use constant {
  KEY_PREFIX          => 'gk_live_',
  SECRET_LENGTH       => 40,
  PER_KEY_LIMIT       => 100,    # per window (document: per minute)
  PER_IP_LIMIT        => 20,     # per window, requests with no Authorization header
  DEFAULT_LIMIT       => 100,
  MAX_LIMIT           => 10000,
  MAX_PAGE            => 9007199254740991,    # 2**53 - 1
  MAX_ROWS            => 10000,               # rows per submission
  MAX_KEY_NAME        => 100,                 # characters
  MAX_ACTIVE_KEYS     => 500,                 # per account (plan limit)
  MAX_JSON_DEPTH      => 512,
  MAX_REQUEST_BYTES   => 16 * 1024 * 1024,    # Mojolicious default
};

# ---------------------------------------------------------------------------
# Randomness, identifiers and time
# ---------------------------------------------------------------------------

open my $URANDOM, '<:raw', '/dev/urandom' or die "cannot open /dev/urandom: $!\n";

sub random_bytes {
  my $n   = shift;
  my $out = '';
  while (length $out < $n) {
    my $got = read $URANDOM, my $buf, $n - length $out;
    die "short read from /dev/urandom\n" unless $got;
    $out .= $buf;
  }
  return $out;
}

my @B62 = ('0' .. '9', 'A' .. 'Z', 'a' .. 'z');

# Uniform base62 string from the kernel CSPRNG (rejection sampling).
sub random_b62 {
  my $n   = shift;
  my $out = '';
  while (length $out < $n) {
    for my $byte (unpack 'C*', random_bytes($n)) {
      next if $byte >= 248;    # 248 = 4 * 62
      $out .= $B62[$byte % 62];
      last if length $out == $n;
    }
  }
  return $out;
}

# Deterministic base62 string for seeded identifiers (stable across restarts).
sub stable_b62 {
  my ($seed, $n) = @_;
  my $out   = '';
  my $round = 0;
  while (length $out < $n) {
    for my $byte (unpack 'C*', sha256("$seed#" . $round++)) {
      next if $byte >= 248;
      $out .= $B62[$byte % 62];
      last if length $out == $n;
    }
  }
  return $out;
}

my %USED_IDS;

sub new_id {
  my ($prefix, $seed) = @_;
  while (1) {
    my $id = $prefix . (defined $seed ? stable_b62($seed, 14) : random_b62(14));
    next if $USED_IDS{$id}++;
    return $id;
  }
}

sub iso_time {
  my $t  = shift // Time::HiRes::time();
  my $s  = floor($t);
  my $ms = int(($t - $s) * 1000);
  $ms = 999 if $ms > 999;
  return strftime('%Y-%m-%dT%H:%M:%S', gmtime $s) . sprintf('.%03dZ', $ms);
}

# ---------------------------------------------------------------------------
# In-memory store
# ---------------------------------------------------------------------------

# Collections of an account that are listable, in list order.
my @COLLECTIONS = qw(workspaces governance_models records taxonomies fields picklists submissions);

my %ACCOUNTS;       # account id => account
my %KEY_BY_HASH;    # sha256 hex of the full key => key record (live keys only)

sub new_account {
  my ($id, $name) = @_;
  my $acct = {id => $id, name => $name, keys => [], idx => {}};
  $acct->{$_} = [] for @COLLECTIONS;
  $acct->{idx}{$_} = {} for @COLLECTIONS, 'keys';
  return $ACCOUNTS{$id} = $acct;
}

sub add_item {
  my ($acct, $coll, $item) = @_;
  push @{$acct->{$coll}}, $item;
  $acct->{idx}{$coll}{$item->{id}} = $item;
  return $item;
}

# Creates a key and returns (record, full key).  Only the SHA-256 hash of the
# full key and a four-character hint are kept.
sub create_key {
  my ($acct, $name, $created) = @_;
  my $secret = random_b62(SECRET_LENGTH);
  my $full   = KEY_PREFIX . $secret;
  my $hash   = sha256_hex($full);
  my $rec    = {
    id           => new_id('key_'),
    account_id   => $acct->{id},
    name         => $name,
    hash         => $hash,
    hint         => KEY_PREFIX . "\x{2026}" . substr($secret, -4),
    created_at   => $created // iso_time(),
    last_used    => undef,
    last_used_at => undef,
  };
  push @{$acct->{keys}}, $rec;
  $acct->{idx}{keys}{$rec->{id}} = $rec;
  $KEY_BY_HASH{$hash} = $rec;
  return ($rec, $full);
}

sub revoke_key {
  my ($acct, $rec) = @_;
  delete $KEY_BY_HASH{$rec->{hash}};
  delete $acct->{idx}{keys}{$rec->{id}};
  @{$acct->{keys}} = grep { $_ != $rec } @{$acct->{keys}};
  $rec->{revoked_at} = iso_time();
}

# ---------------------------------------------------------------------------
# Seed data
# ---------------------------------------------------------------------------

# Small deterministic PRNG (xorshift32) so that seeded content is identical on
# every start, independent of Perl's rand().
{
  my $state;
  sub prng_seed { $state = shift || 1 }

  sub prng {
    $state ^= ($state << 13) & 0xFFFFFFFF;
    $state ^= ($state >> 17);
    $state ^= ($state << 5) & 0xFFFFFFFF;
    $state &= 0xFFFFFFFF;
    return $state / 4294967296;
  }
}
sub pick   { my $list = shift; return $list->[int(prng() * @$list)] }
sub irange { my ($lo, $hi) = @_; return $lo + int(prng() * ($hi - $lo + 1)) }

sub seed_date {
  my ($base_days, $n) = @_;    # days after 2023-01-01
  my $t = 1672531200 + ($base_days + $n) * 86400 + ($n * 3677) % 86400;
  return iso_time($t);
}

my $SERVICE_SEQ = 0;

sub service_id {
  my $n = ++$SERVICE_SEQ;
  my @c = ('A' .. 'H', 'J' .. 'N', 'P' .. 'Z', '2' .. '9');    # no I, O, 0, 1
  my $s = '';
  my $v = ($n * 7919 + 104729) % (32**5);
  for (1 .. 5) { $s .= $c[$v % 32]; $v = int($v / 32) }
  return "SV-$s";
}

my @FIRST = qw(Ava Ben Chloe Dmitri Elena Farid Grace Hiro Ines Jonas Kara Luis Maya Noah Olga Priya Quentin Rosa Sven Tara);
my @LAST  = qw(Adler Brooks Costa Duarte Eriksen Fischer Garcia Haddad Ito Jensen Kowalski Larsen Moreau Novak Okafor Petrov Quinn Rossi Silva Tanaka);
my @COUNTRIES = qw(DE FR NL SE ES IT PL PT DK FI IE AT BE CZ NO GB US CA JP);
my @STATUSES  = qw(draft submitted in_review approved rejected archived);

sub person { my $f = pick(\@FIRST); my $l = pick(\@LAST); return ("$f $l", lc("$f.$l")) }

my %DATA_MAKERS = (
  product => sub {
    my $n   = shift;
    my @cat = ('Office Furniture', 'Lab Equipment', 'Safety Gear', 'Networking', 'Packaging', 'Cleaning Supplies');
    my @adj = qw(Compact Deluxe Modular Heavy-Duty Ergonomic Portable Sealed Recycled);
    my @nou = qw(Desk Shelf Beaker Goggles Switch Carton Cabinet Centrifuge Respirator Router Mop Pipette);
    my $price = sprintf('%.2f', 4 + prng() * 900) + 0;
    return {
      sku        => sprintf('ACME-%05d', 1000 + $n * 7),
      name       => pick(\@adj) . ' ' . pick(\@nou),
      category   => pick(\@cat),
      price      => $price,
      currency   => pick([qw(EUR USD GBP)]),
      in_stock   => prng() < 0.7 ? true : false,
      tags       => [grep { prng() < 0.5 } qw(bestseller eco bulk clearance new)],
      dimensions => {width => irange(5, 200), height => irange(5, 200), depth => irange(5, 120), unit => 'cm'},
    };
  },
  clinical => sub {
    my $n = shift;
    my ($pi) = person();
    return {
      study_code             => sprintf('CT-%d-%03d', 2022 + $n % 3, 10 + $n),
      site                   => pick([qw(Lyon Leiden Uppsala Heidelberg Porto Krakow Aarhus Bologna Graz Ghent)]),
      country                => pick([qw(FR NL SE DE PT PL DK IT AT BE)]),
      phase                  => pick(['I', 'II', 'III', 'IV']),
      enrolled_subjects      => irange(12, 480),
      principal_investigator => "Dr. $pi",
      start_date             => sprintf('20%02d-%02d-%02d', irange(22, 24), irange(1, 12), irange(1, 28)),
      adverse_events         => irange(0, 9),
      double_blind           => prng() < 0.6 ? true : false,
    };
  },
  supplier => sub {
    my $n = shift;
    my ($name, $mail) = person();
    my @pre = qw(Nordic Alpine Baltic Iberian Danube Celtic Rhine Adriatic);
    my @suf = ('Logistics GmbH', 'Components AB', 'Polymers S.A.', 'Metals B.V.', 'Textiles S.p.A.', 'Chemicals Ltd');
    my $company = pick(\@pre) . ' ' . pick(\@suf);
    my $country = pick(\@COUNTRIES);
    return {
      supplier_name     => $company,
      country           => $country,
      vat_number        => sprintf('%s%09d', $country, irange(100000000, 999999999)),
      risk_tier         => irange(1, 4),
      certifications    => [grep { prng() < 0.45 } ('ISO 9001', 'ISO 14001', 'ISO 27001', 'SA8000', 'EcoVadis Gold')],
      contact           => {name => $name, email => "$mail\@example.com"},
      annual_spend_eur  => irange(5, 950) * 1000,
      onboarding_notes  => prng() < 0.3 ? undef : 'Due diligence questionnaire received.',
    };
  },
  campaign => sub {
    my $n           = shift;
    my $impressions = irange(8000, 900000);
    my $clicks      = int($impressions * (0.002 + prng() * 0.04));
    my $month       = irange(1, 11);
    return {
      campaign    => sprintf('%s %d - %s', pick([qw(Spring Summer Autumn Winter)]), 2023 + $n % 2, pick(['Brand', 'Retargeting', 'Launch', 'Webinar'])),
      channel     => pick([qw(search social display email video)]),
      start_date  => sprintf('2024-%02d-%02d', $month, irange(1, 28)),
      end_date    => sprintf('2024-%02d-%02d', $month + 1, irange(1, 28)),
      impressions => $impressions,
      clicks      => $clicks,
      ctr         => sprintf('%.4f', $clicks / $impressions) + 0,
      budget_usd  => irange(2, 80) * 500,
    };
  },
  archive => sub {
    my $n = shift;
    return {
      legacy_ref         => sprintf('LGC/2023/%04d', 300 + $n * 13),
      title              => pick(['Quarterly vendor review', 'Retired SKU sheet', 'Closed audit finding', 'Expired consent form', 'Superseded policy']),
      archived_on        => sprintf('2023-12-%02d', irange(1, 31)),
      retention_until    => sprintf('20%d-12-31', irange(28, 33)),
      original_workspace => pick(['Main', 'Supplier Onboarding', 'Marketing Analytics']),
      notes              => undef,
    };
  },
  lab => sub {
    my $n = shift;
    return {
      sample_id    => sprintf('BL-%06d', 52000 + $n * 17),
      matrix       => pick([qw(soil water air sediment)]),
      collected_at => sprintf('2024-%02d-%02dT%02d:%02d:00Z', irange(1, 12), irange(1, 28), irange(6, 18), irange(0, 59)),
      location     => {lat => sprintf('%.5f', 60 + prng() * 9) + 0, lon => sprintf('%.5f', 5 + prng() * 20) + 0},
      analyte      => pick([qw(nitrate phosphate lead cadmium pm2_5 ph)]),
      value        => sprintf('%.3f', prng() * 50) + 0,
      unit         => pick(['mg/L', 'ug/m3', 'mg/kg']),
    };
  },
);

sub seed_account {
  my %a    = @_;
  my $acct = new_account($a{id}, $a{name});
  my $tag  = $a{id};

  my %ws_by_name;
  my $i = 0;
  for my $ws (@{$a{workspaces}}) {
    my $item = add_item($acct, 'workspaces', {
      id          => new_id('ws_', "$tag/workspace/$ws->[0]"),
      name        => $ws->[0],
      description => $ws->[1],
      created_at  => seed_date(10, $i++ * 9),
    });
    $ws_by_name{$ws->[0]} = $item;
  }
  for my $gm (@{$a{governance_models}}) {
    add_item($acct, 'governance_models', {
      id          => new_id('gm_', "$tag/governance/$gm->[0]"),
      name        => $gm->[0],
      description => $gm->[1],
    });
  }
  my %pl_by_name;
  for my $pl (@{$a{picklists}}) {
    my $item = add_item($acct, 'picklists', {
      id      => new_id('pl_', "$tag/picklist/$pl->[0]"),
      name    => $pl->[0],
      options => [map { {value => $_->[0], label => $_->[1]} } @{$pl->[1]}],
    });
    $pl_by_name{$pl->[0]} = $item;
  }
  $i = 0;
  for my $tx (@{$a{taxonomies}}) {
    my ($tname, $tdesc, $fields) = @$tx;
    my $tax = add_item($acct, 'taxonomies', {
      id          => new_id('tx_', "$tag/taxonomy/$tname"),
      name        => $tname,
      description => $tdesc,
      version     => 1 + $i % 3,
      field_count => scalar @$fields,
      created_at  => seed_date(20, $i++ * 5),
    });
    my $pos = 0;
    for my $f (@$fields) {
      my ($key, $label, $type, $required, $picklist) = @$f;
      add_item($acct, 'fields', {
        id          => new_id('fld_', "$tag/field/$tname/$key"),
        taxonomy_id => $tax->{id},
        key         => $key,
        name        => $label,
        type        => $type,
        required    => $required ? true : false,
        position    => ++$pos,
        picklist_id => defined $picklist ? $pl_by_name{$picklist}{id} : undef,
      });
    }
  }
  my $n = 0;
  for my $spec (@{$a{records}}) {
    my ($wsname, $count, $maker) = @$spec;
    for (1 .. $count) {
      $n++;
      add_item($acct, 'records', {
        id           => new_id('rec_', "$tag/record/$n"),
        status       => pick(\@STATUSES),
        service_id   => service_id(),
        workspace_id => $ws_by_name{$wsname}{id},
        data         => $DATA_MAKERS{$maker}->($n),
      });
    }
  }
  return $acct;
}

prng_seed(20240601);

my $ACCT_A = seed_account(
  id         => 'acct_A',
  name       => 'Acme Data Co',
  workspaces => [
    ['Main',                'Default workspace created at sign-up.'],
    ['Clinical Trials EU',  'Study metadata for the European clinical programme.'],
    ['Supplier Onboarding', 'Due diligence and master data for new suppliers.'],
    ['Marketing Analytics', 'Campaign performance imported from ad platforms.'],
    ['Archive 2023',        ''],
  ],
  governance_models => [
    ['GDPR Data Stewardship', 'Personal data handling under the EU General Data Protection Regulation.'],
    ['SOX Financial Controls', 'Controls over financial reporting data (Sarbanes-Oxley section 404).'],
    ['Internal Default', undef],
    ['HIPAA Privacy Rule', 'Protected health information safeguards.'],
    ['Lightweight Review', undef],
  ],
  picklists => [
    ['Currencies',       [[EUR => 'Euro'], [USD => 'US dollar'], [GBP => 'Pound sterling']]],
    ['Study phases',     [[I => 'Phase I'], [II => 'Phase II'], [III => 'Phase III'], [IV => 'Phase IV']]],
    ['Risk tiers',       [[1 => 'Low'], [2 => 'Moderate'], [3 => 'High'], [4 => 'Critical']]],
    ['Campaign channels', [[search => 'Paid search'], [social => 'Social'], [display => 'Display'], [email => 'Email'], [video => 'Video']]],
    ['Countries',        [map { [$_ => $_] } @COUNTRIES]],
    ['Retention periods', [[P1Y => '1 year'], [P5Y => '5 years'], [P7Y => '7 years'], [P10Y => '10 years']]],
  ],
  taxonomies => [
    ['Product Catalog', 'Sellable and internal-use products.', [
      ['sku', 'SKU', 'string', 1], ['name', 'Product name', 'string', 1], ['category', 'Category', 'string', 0],
      ['price', 'Unit price', 'number', 1], ['currency', 'Currency', 'picklist', 1, 'Currencies'],
      ['in_stock', 'In stock', 'boolean', 0]]],
    ['Clinical Study Metadata', 'Descriptive metadata for interventional studies.', [
      ['study_code', 'Study code', 'string', 1], ['site', 'Site', 'string', 1], ['phase', 'Phase', 'picklist', 1, 'Study phases'],
      ['enrolled_subjects', 'Enrolled subjects', 'integer', 0], ['start_date', 'Start date', 'date', 0]]],
    ['Supplier Profile', 'Master data captured during supplier onboarding.', [
      ['supplier_name', 'Supplier name', 'string', 1], ['country', 'Country', 'picklist', 1, 'Countries'],
      ['vat_number', 'VAT number', 'string', 0], ['risk_tier', 'Risk tier', 'picklist', 1, 'Risk tiers']]],
    ['Campaign Performance', 'Daily or aggregate campaign metrics.', [
      ['campaign', 'Campaign', 'string', 1], ['channel', 'Channel', 'picklist', 1, 'Campaign channels'],
      ['impressions', 'Impressions', 'integer', 0], ['clicks', 'Clicks', 'integer', 0], ['budget_usd', 'Budget (USD)', 'number', 0]]],
    ['Asset Register', 'Physical and digital assets with owners.', [
      ['asset_tag', 'Asset tag', 'string', 1], ['owner_email', 'Owner e-mail', 'string', 1], ['location', 'Location', 'string', 0]]],
    ['Data Retention Policy', 'Retention rules per record class.', [
      ['record_class', 'Record class', 'string', 1], ['retention', 'Retention period', 'picklist', 1, 'Retention periods'],
      ['legal_hold', 'Legal hold', 'boolean', 0]]],
  ],
  records => [
    ['Main', 42, 'product'], ['Clinical Trials EU', 30, 'clinical'], ['Supplier Onboarding', 28, 'supplier'],
    ['Marketing Analytics', 25, 'campaign'], ['Archive 2023', 12, 'archive'],
  ],
);

my $ACCT_B = seed_account(
  id         => 'acct_B',
  name       => 'Borealis Labs',
  workspaces => [
    ['Main',             'Default workspace created at sign-up.'],
    ['Field Operations', 'Samples collected by field teams.'],
    ['Lab Results',      'Validated laboratory measurements.'],
  ],
  governance_models => [
    ['ISO 17025 Lab Quality', 'Competence requirements for testing laboratories.'],
    ['Open Data Release',     undef],
  ],
  picklists => [
    ['Sample matrices', [[soil => 'Soil'], [water => 'Water'], [air => 'Air'], [sediment => 'Sediment']]],
    ['Units',           [['mg/L' => 'milligrams per litre'], ['ug/m3' => 'micrograms per cubic metre'], ['mg/kg' => 'milligrams per kilogram']]],
  ],
  taxonomies => [
    ['Environmental Sample', 'One physical sample and where it was taken.', [
      ['sample_id', 'Sample ID', 'string', 1], ['matrix', 'Matrix', 'picklist', 1, 'Sample matrices'],
      ['collected_at', 'Collected at', 'datetime', 1]]],
    ['Measurement', 'A single analyte measurement.', [
      ['analyte', 'Analyte', 'string', 1], ['value', 'Value', 'number', 1], ['unit', 'Unit', 'picklist', 1, 'Units']]],
  ],
  records => [['Field Operations', 9, 'lab'], ['Lab Results', 7, 'lab']],
);

my (undef, $MAIN_KEY)  = create_key($ACCT_A, 'Integration (owner)', '2024-02-01T08:00:00.000Z');
create_key($ACCT_A, 'Reporting dashboard', '2024-03-12T14:25:31.000Z');    # secret discarded: never shown
my (undef, $OTHER_KEY) = create_key($ACCT_B, 'Borealis ETL', '2024-04-03T10:11:12.000Z');

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

# An API error thrown from inside an action and rendered by the wrapper.
sub fail {
  my ($status, $type, $code, $message, $param, $path) = @_;
  die bless {status => $status, type => $type, code => $code, message => $message, param => $param, path => $path},
    'ApiError';
}

sub render_error {
  my ($c, $status, $type, $code, $message, $param, $path) = @_;
  $c->render(
    status => $status,
    json   => {error => {type => $type, code => $code, message => $message, param => $param, path => $path}},
  );
  return undef;
}

sub invalid { my ($code, $message, $param, $path) = @_; fail(422, 'invalid_request_error', $code, $message, $param, $path) }
sub missing { my ($param, $message, $path) = @_; fail(400, 'invalid_request_error', 'missing_param', $message, $param, $path) }
sub not_found { my ($what, $param) = @_; fail(404, 'not_found_error', undef, "No such $what.", $param, undef) }

# ---------------------------------------------------------------------------
# Rate limiting: fixed windows of $WINDOW seconds per bucket; a window opens
# at the whole second of the first request after the previous one closed.
# ---------------------------------------------------------------------------

my %BUCKETS;
my $BUCKET_OPS = 0;

sub rate_take {
  my ($bucket, $limit) = @_;
  my $now = Time::HiRes::time();
  if (++$BUCKET_OPS % 1000 == 0) {
    for my $k (keys %BUCKETS) { delete $BUCKETS{$k} if $BUCKETS{$k}{reset} <= $now }
  }
  my $b = $BUCKETS{$bucket};
  $b = $BUCKETS{$bucket} = {reset => floor($now) + $WINDOW, count => 0} if !$b || $now >= $b->{reset};
  my $allowed = $b->{count} < $limit;
  $b->{count}++ if $allowed;
  my $retry = ceil($b->{reset} - $now);
  $retry = 1 if $retry < 1;
  return {
    allowed     => $allowed,
    limit       => $limit,
    remaining   => ($limit - $b->{count} > 0 ? $limit - $b->{count} : 0),
    reset       => $b->{reset},
    retry_after => $retry,
  };
}

sub rate_headers {
  my ($c, $rl) = @_;
  my $h = $c->res->headers;
  $h->header('X-RateLimit-Limit'     => $rl->{limit});
  $h->header('X-RateLimit-Remaining' => $rl->{remaining});
  $h->header('X-RateLimit-Reset'     => $rl->{reset});
}

sub render_rate_limited {
  my ($c, $rl) = @_;
  $c->res->headers->header('Retry-After' => $rl->{retry_after});
  my $s = $rl->{retry_after} == 1 ? 'second' : 'seconds';
  return render_error($c, 429, 'rate_limit_error', 'rate_limit_exceeded',
    "Too many requests. Retry after $rl->{retry_after} $s.", undef, undef);
}

# ---------------------------------------------------------------------------
# Request helpers
# ---------------------------------------------------------------------------

sub is_json_string {    # a decoded JSON string (not a number, boolean or null)
  return 0 if !defined $_[0] || ref $_[0];
  my $flags = B::svref_2object(\$_[0])->FLAGS;
  return ($flags & B::SVp_POK) && !($flags & (B::SVp_IOK | B::SVp_NOK)) ? 1 : 0;
}

sub json_type {
  my $v = $_[0];
  return 'null' unless defined $v;
  my $r = ref $v;
  return 'object'  if $r eq 'HASH';
  return 'array'   if $r eq 'ARRAY';
  return 'boolean' if $r;
  return is_json_string($_[0]) ? 'string' : 'number';
}

# Nesting depth guard (also protects the pure-Perl JSON fallback).
sub json_depth_ok {
  my ($s, $max) = @_;
  return 1 if length($s) <= $max;
  my $depth = 0;
  pos($s) = 0;
  while ($s =~ /([\[\]{}"])/g) {
    my $ch = $1;
    if ($ch eq '"') {
      while (1) {
        $s =~ /\G[^"\\]*/gc;
        next if $s =~ /\G\\./gcs;
        last unless $s =~ /\G"/gc;
        last;
      }
    }
    elsif ($ch eq '[' || $ch eq '{') { return 0 if ++$depth > $max }
    else                             { $depth-- }
  }
  return 1;
}

sub json_body {
  my $c    = shift;
  my $body = $c->req->body // '';
  fail(400, 'invalid_request_error', 'invalid_body', 'The request body must be a JSON object.', undef, undef)
    if $body !~ /\S/;
  fail(400, 'invalid_request_error', 'invalid_json', 'The request body is nested too deeply.', undef, undef)
    unless json_depth_ok($body, MAX_JSON_DEPTH);
  my $data;
  my $ok = eval { $data = decode_json($body); 1 };
  fail(400, 'invalid_request_error', 'invalid_json', 'The request body is not valid JSON.', undef, undef) unless $ok;
  fail(400, 'invalid_request_error', 'invalid_body', 'The request body must be a JSON object.', undef, undef)
    unless ref $data eq 'HASH';
  return $data;
}

# One query parameter, given at most once.  Returns undef when absent.
sub query_value {
  my ($c, $name) = @_;
  my $values = $c->req->url->query->every_param($name);
  return undef unless @$values;
  invalid('duplicate_param', "The query parameter '$name' must be given at most once.", $name, undef) if @$values > 1;
  return $values->[0] // '';
}

sub query_int {
  my ($c, $name, $default, $min, $max) = @_;
  my $v = query_value($c, $name);
  return $default unless defined $v;
  if ($v !~ /\A[0-9]+\z/) {
    invalid('out_of_range', "'$name' must be at least $min.", $name, undef) if $v =~ /\A-[0-9]+\z/;
    invalid('invalid_integer', "'$name' must be a whole number written in decimal digits.", $name, undef);
  }
  (my $digits = $v) =~ s/\A0+(?=[0-9])//;
  invalid('out_of_range', "'$name' must be between $min and $max.", $name, undef)
    if length($digits) > length("$max") || $digits > $max || $digits < $min;
  return $digits + 0;
}

# Optional exact-match filter on a list.
sub query_filter {
  my ($c, $name) = @_;
  my $v = query_value($c, $name);
  return undef unless defined $v;
  invalid('invalid_value', "The filter '$name' must not be empty.", $name, undef) if $v eq '';
  return $v;
}

sub paginate {
  my $c     = shift;
  my $page  = query_int($c, 'page',  1,             1, MAX_PAGE);
  my $limit = query_int($c, 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT);
  return ($page, $limit);
}

sub render_page {
  my ($c, $page, $limit, $list, $view) = @_;
  my $total  = scalar @$list;
  my $offset = ($page - 1) * $limit;
  my @slice  = $offset < $total ? @$list[$offset .. ($offset + $limit < $total ? $offset + $limit : $total) - 1] : ();
  $c->render(json => {
    items       => [map { $view->($_) } @slice],
    has_more    => ($offset + $limit < $total ? true : false),
    total_count => $total + 0,
  });
}

# ---------------------------------------------------------------------------
# Views (the public shape of each resource)
# ---------------------------------------------------------------------------

my %VIEW = (
  workspaces        => sub { my $w = shift; return {id => $w->{id}, name => $w->{name}, description => $w->{description}, created_at => $w->{created_at}} },
  governance_models => sub { my $g = shift; return {id => $g->{id}, name => $g->{name}, description => $g->{description}} },
  records           => sub {
    my $r = shift;
    return {id => $r->{id}, status => $r->{status}, service_id => $r->{service_id}, workspace_id => $r->{workspace_id}, data => $r->{data}};
  },
  taxonomies => sub { my $t = shift; return {map { $_ => $t->{$_} } qw(id name description version field_count created_at)} },
  fields     => sub { my $f = shift; return {map { $_ => $f->{$_} } qw(id taxonomy_id key name type required position picklist_id)} },
  picklists  => sub { my $p = shift; return {id => $p->{id}, name => $p->{name}, options => $p->{options}} },
  submissions => sub {
    my $s = shift;
    return {map { $_ => $s->{$_} } qw(id workspace_id taxonomy_id row_count created_at)};
  },
  keys => sub {
    my $k = shift;
    return {id => $k->{id}, name => $k->{name}, hint => $k->{hint}, created_at => $k->{created_at}, last_used_at => $k->{last_used_at}};
  },
);

my %SINGULAR = (
  workspaces => 'workspace', governance_models => 'governance model', records => 'record', taxonomies => 'taxonomy',
  fields     => 'field', picklists => 'picklist', submissions => 'submission', keys => 'API key',
);

# Filters offered by list endpoints: query name => item member.
my %FILTERS = (
  records     => [[status => 'status'], [workspace_id => 'workspace_id']],
  fields      => [[taxonomy_id => 'taxonomy_id']],
  submissions => [[workspace_id => 'workspace_id'], [taxonomy_id => 'taxonomy_id']],
);

# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------

sub list_action {
  my $coll = shift;
  return sub {
    my $c    = shift;
    my $acct = $c->stash('account');
    my ($page, $limit) = paginate($c);
    my @items = @{$acct->{$coll}};
    for my $f (@{$FILTERS{$coll} // []}) {
      my ($param, $member) = @$f;
      my $want = query_filter($c, $param);
      next unless defined $want;
      if ($param eq 'status') {
        invalid('invalid_value', "Unknown status; expected one of: @{[join ', ', @STATUSES]}.", 'status', undef)
          unless grep { $_ eq $want } @STATUSES;
      }
      @items = grep { defined $_->{$member} && $_->{$member} eq $want } @items;
    }
    render_page($c, $page, $limit, \@items, $VIEW{$coll});
  };
}

sub get_action {
  my $coll = shift;
  return sub {
    my $c    = shift;
    my $item = $c->stash('account')->{idx}{$coll}{$c->stash('id')} // not_found($SINGULAR{$coll});
    my $view = $VIEW{$coll}->($item);
    $view->{rows} = $item->{rows} if $coll eq 'submissions';
    $c->render(json => $view);
  };
}

sub create_submission {
  my $c    = shift;
  my $acct = $c->stash('account');

  my $ws_q = query_value($c, 'workspace_id');
  missing('workspace_id', "The query parameter 'workspace_id' is required.") unless defined $ws_q;
  invalid('invalid_value', "The query parameter 'workspace_id' must not be empty.", 'workspace_id', undef) if $ws_q eq '';

  my $body = json_body($c);
  for my $f (qw(taxonomy_id rows)) {
    missing($f, "The body field '$f' is required.", $f) unless exists $body->{$f};
  }
  if (exists $body->{workspace_id}) {
    invalid('invalid_type', "'workspace_id' must be a string.", 'workspace_id', 'workspace_id')
      unless is_json_string($body->{workspace_id});
    invalid('workspace_mismatch', "'workspace_id' in the body must equal the 'workspace_id' query parameter.",
      'workspace_id', 'workspace_id')
      unless $body->{workspace_id} eq $ws_q;
  }
  invalid('invalid_type', "'taxonomy_id' must be a string.", 'taxonomy_id', 'taxonomy_id')
    unless is_json_string($body->{taxonomy_id});
  invalid('invalid_value', "'taxonomy_id' must not be empty.", 'taxonomy_id', 'taxonomy_id') if $body->{taxonomy_id} eq '';

  my $rows = $body->{rows};
  invalid('invalid_type', "'rows' must be an array of objects.", 'rows', 'rows') unless ref $rows eq 'ARRAY';
  invalid('invalid_value', "'rows' must contain at least one row.", 'rows', 'rows') unless @$rows;
  invalid('too_many_rows', "'rows' holds more rows than one submission accepts.", 'rows', 'rows') if @$rows > MAX_ROWS;
  for my $i (0 .. $#$rows) {
    my $row = $rows->[$i];
    invalid('invalid_type', "Row $i must be an object with a 'data' member.", 'rows', "rows[$i]") unless ref $row eq 'HASH';
    invalid('invalid_value', "Row $i has no 'data' member.", 'rows', "rows[$i].data") unless exists $row->{data};
    invalid('invalid_type', "'data' of row $i must be an object.", 'rows', "rows[$i].data") unless ref $row->{data} eq 'HASH';
  }

  my $ws  = $acct->{idx}{workspaces}{$ws_q}            // not_found('workspace', 'workspace_id');
  my $tax = $acct->{idx}{taxonomies}{$body->{taxonomy_id}} // not_found('taxonomy', 'taxonomy_id');

  my $sub = add_item($acct, 'submissions', {
    id           => new_id('sub_'),
    workspace_id => $ws->{id},
    taxonomy_id  => $tax->{id},
    row_count    => scalar @$rows,
    created_at   => iso_time(),
    rows         => [map { {data => $_->{data}} } @$rows],
  });
  $c->res->headers->location("/api/v1/submissions/$sub->{id}");
  $c->render(status => 201, json => $VIEW{submissions}->($sub));
}

sub list_keys {
  my $c    = shift;
  my ($page, $limit) = paginate($c);
  render_page($c, $page, $limit, $c->stash('account')->{keys}, $VIEW{keys});
}

sub create_api_key {
  my $c    = shift;
  my $acct = $c->stash('account');
  my $body = json_body($c);
  missing('name', "The body field 'name' is required.", 'name') unless exists $body->{name};
  invalid('invalid_type', "'name' must be a string.", 'name', 'name') unless is_json_string($body->{name});
  my $name = $body->{name};
  $name =~ s/\A\s+|\s+\z//g;
  invalid('invalid_value', "'name' must not be blank.", 'name', 'name') if $name eq '';
  invalid('invalid_value', "'name' is too long.", 'name', 'name') if length $name > MAX_KEY_NAME;
  fail(422, 'plan_limit_exceeded', 'limit_exceeded', 'The plan allows no more active API keys; delete one first.',
    'api_keys', undef)
    if @{$acct->{keys}} >= MAX_ACTIVE_KEYS;
  my ($rec, $full) = create_key($acct, $name);
  my $view = $VIEW{keys}->($rec);
  $view->{key} = $full;
  $c->res->headers->cache_control('no-store');
  $c->res->headers->location("/api/v1/api_keys/$rec->{id}");
  $c->render(status => 201, json => $view);
}

sub delete_api_key {
  my $c    = shift;
  my $acct = $c->stash('account');
  my $rec  = $acct->{idx}{keys}{$c->stash('id')} // not_found('API key');
  revoke_key($acct, $rec);
  my $view = $VIEW{keys}->($rec);
  $view->{revoked_at} = $rec->{revoked_at};
  $view->{deleted}    = true;
  $c->render(json => $view);
}

sub admin_only {
  my $c = shift;
  fail(403, 'authorization_error', 'admin_only', 'This endpoint is reserved for account administrators in the web app; API keys cannot use it.', undef, undef);
}

# ---------------------------------------------------------------------------
# Application
# ---------------------------------------------------------------------------

my $app = Mojolicious->new;
$app->mode('production');
$app->log->level('error');
$app->secrets([random_b62(32)]);
$app->max_request_size(MAX_REQUEST_BYTES);
$app->exception_format('json');
# Serve no static files and no templates: every response is JSON.
$app->static->paths([]);
$app->static->classes([]);
$app->static->extra({});
$app->renderer->paths([]);
$app->renderer->classes([]);

$app->helper('reply.exception' => sub {
  my ($c, $e) = @_;
  $c->app->log->error(ref $e && $e->can('message') ? $e->message : "$e");
  return render_error($c, 500, 'api_error', undef, 'An unexpected error occurred on the server.', undef, undef);
});
$app->helper('reply.not_found' => sub {
  my $c = shift;
  return render_error($c, 404, 'not_found_error', undef, 'No endpoint exists at this path.', undef, undef);
});

# Every request: transport errors, then authentication and rate limiting.
$app->hook(before_dispatch => sub {
  my $c   = shift;
  my $req = $c->req;

  if (my $err = $req->error) {
    my $msg = $err->{message} // '';
    $c->res->headers->connection('close');
    return render_error($c, 413, 'invalid_request_error', 'body_too_large', 'The request body is too large.', undef, undef)
      if $msg =~ /message size/i;
    return render_error($c, 400, 'invalid_request_error', 'malformed_request', 'The HTTP request could not be parsed.',
      undef, undef);
  }

  my $auth = $req->headers->authorization;
  if (!defined $auth || $auth !~ /\S/) {
    my $rl = rate_take('ip:' . ($c->tx->remote_address // 'unknown'), PER_IP_LIMIT);
    rate_headers($c, $rl);
    return render_rate_limited($c, $rl) unless $rl->{allowed};
    $c->res->headers->www_authenticate('Bearer realm="api"');
    return render_error($c, 401, 'authentication_error', undef,
      'Authentication required: send the header "Authorization: Bearer <API key>".', undef, undef);
  }

  my ($token) = $auth =~ /\A[ \t]*Bearer +([^\s,]+)[ \t]*\z/i;
  if (!defined $token || index($token, KEY_PREFIX) != 0) {
    $c->res->headers->www_authenticate('Bearer realm="api", error="invalid_request"');
    return render_error($c, 401, 'authentication_error', undef,
      'Malformed Authorization header: expected "Bearer <API key>".', undef, undef);
  }

  utf8::encode($token) if utf8::is_utf8($token);
  my $key = $KEY_BY_HASH{sha256_hex($token)};
  if (!$key) {
    $c->res->headers->www_authenticate('Bearer realm="api", error="invalid_token"');
    return render_error($c, 401, 'authentication_error', undef, 'The API key is unknown or has been revoked.', undef,
      undef);
  }

  # Record the use (strictly increasing, millisecond precision).
  my $now = Time::HiRes::time();
  $now = $key->{last_used} + 0.001 if defined $key->{last_used} && $now <= $key->{last_used};
  $key->{last_used}    = $now;
  $key->{last_used_at} = iso_time($now);

  my $rl = rate_take('key:' . $key->{id}, PER_KEY_LIMIT);
  rate_headers($c, $rl);
  return render_rate_limited($c, $rl) unless $rl->{allowed};

  $c->stash(account => $ACCOUNTS{$key->{account_id}}, api_key => $key);
  return;
});

my $r = $app->routes;
my @ALLOW;    # [pattern, [methods]]

sub wrap_action {
  my $cb = shift;
  return sub {
    my $c  = shift;
    my $ok = eval { $cb->($c); 1 };
    return if $ok;
    my $e = $@;
    die $e unless ref $e eq 'ApiError';
    render_error($c, @$e{qw(status type code message param path)});
  };
}

sub endpoint {
  my ($pattern, %methods) = @_;
  for my $m (sort keys %methods) {
    $r->any([$m] => $pattern)->to(cb => wrap_action($methods{$m}));
  }
  push @ALLOW, [$pattern, [sort keys %methods]];
}

for my $coll (qw(workspaces governance_models records taxonomies fields picklists)) {
  endpoint("/api/v1/$coll",         GET => list_action($coll));
  endpoint("/api/v1/$coll/<#id>",   GET => get_action($coll));
}
endpoint('/api/v1/submissions',       GET => list_action('submissions'), POST => \&create_submission);
endpoint('/api/v1/submissions/<#id>', GET => get_action('submissions'));
endpoint('/api/v1/api_keys',          GET => \&list_keys, POST => \&create_api_key);
endpoint('/api/v1/api_keys/<#id>',    GET => get_action('keys'), DELETE => \&delete_api_key);
endpoint("/api/v1/admin/$_",          GET => \&admin_only) for qw(members audit_events settings);

# Known paths, other methods: OPTIONS answers 204 with Allow, the rest 405.
for my $spec (@ALLOW) {
  my ($pattern, $methods) = @$spec;
  my @allow = @$methods;
  push @allow, 'HEAD' if grep { $_ eq 'GET' } @allow;
  push @allow, 'OPTIONS';
  my $allow = join ', ', @allow;
  $r->any($pattern)->to(cb => sub {
    my $c = shift;
    $c->res->headers->allow($allow);
    return $c->rendered(204) if $c->req->method eq 'OPTIONS';
    render_error($c, 405, 'invalid_request_error', 'method_not_allowed',
      "This method is not supported here; allowed: $allow.", undef, undef);
  });
}

# ---------------------------------------------------------------------------
# Serve
# ---------------------------------------------------------------------------

my $listen_host = $HOST =~ /:/ && $HOST !~ /\A\[/ ? "[$HOST]" : $HOST;
my $daemon      = Mojo::Server::Daemon->new(app => $app, listen => ["http://$listen_host:$PORT"], silent => 1);
eval { $daemon->start; 1 } or do { print STDERR "cannot listen on $listen_host:$PORT: $@"; exit 1 };
my $port = $daemon->ports->[0];

my $loop = Mojo::IOLoop->singleton;
my $stopping = 0;
$SIG{INT} = $SIG{TERM} = sub { $stopping = 1; $loop->stop };
# The timer lets Perl-level signal handlers run promptly under any reactor, and
# catches a signal that arrived before the loop was started.
$loop->recurring(0.1 => sub { $loop->stop if $stopping });

STDOUT->autoflush(1);
# One line of JSON (no escaped slashes: nothing here contains a backslash).
(my $ready = encode_json({url => "http://$listen_host:$port", keys => {main => $MAIN_KEY, other => $OTHER_KEY}}))
  =~ s{\\/}{/}g;
print $ready, "\n";

$loop->start unless $stopping;
exit 0;
