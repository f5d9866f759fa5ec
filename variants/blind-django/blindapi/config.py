"""Run-time facts of one server process, set by server.py before Django is set up."""

# Fixed start of every API key this deployment issues (AUTH-5).
KEY_PREFIX = "wsk_"
# Number of random base62 characters after the prefix (~238 bits).
KEY_SECRET_LENGTH = 40

# Limits section of the document: ceilings per window. The window is one minute;
# server.py --window-seconds shortens it for tests (ceilings stay as documented).
PER_KEY_LIMIT = 100
UNAUTHENTICATED_LIMIT = 20
WINDOW_SECONDS = 60.0

# Pagination parameters (document: default 100, bounds 1..10000).
DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 10000

# Open limits (document: "not shown"); our choices, see README.
MAX_ROWS_PER_SUBMISSION = 10000
MAX_DATA_DEPTH = 256
MAX_KEY_NAME_LENGTH = 200
MAX_KEYS_PER_ACCOUNT = 1000
MAX_SUBMISSIONS_PER_ACCOUNT = 100000
