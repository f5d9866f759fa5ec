"""Django settings, applied with settings.configure() by server.py (no settings module
on disk needs DJANGO_SETTINGS_MODULE)."""
import secrets


def django_settings(allowed_hosts):
    return dict(
        DEBUG=False,
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=allowed_hosts,
        ROOT_URLCONF="blindapi.urls",
        INSTALLED_APPS=["rest_framework"],
        MIDDLEWARE=[
            "django.middleware.security.SecurityMiddleware",
            "django.middleware.common.CommonMiddleware",
        ],
        DATABASES={},  # no database: state lives in blindapi.store
        USE_TZ=True,
        TIME_ZONE="UTC",
        USE_I18N=False,
        # Django's default upload ceiling (2.5 MiB) also bounds JSON bodies (see parsers).
        DATA_UPLOAD_MAX_MEMORY_SIZE=2621440,
        LOGGING={
            "version": 1,
            "disable_existing_loggers": False,
            "loggers": {
                # Django logs every 4xx as a warning; keep stderr to real problems.
                "django.request": {"level": "ERROR"},
            },
        },
        REST_FRAMEWORK={
            "DEFAULT_AUTHENTICATION_CLASSES": ["blindapi.auth.BearerKeyAuthentication"],
            "DEFAULT_PERMISSION_CLASSES": ["blindapi.auth.HasAccountKey"],
            "DEFAULT_THROTTLE_CLASSES": [
                "blindapi.auth.KeyRateThrottle",
                "blindapi.auth.AnonymousIpThrottle",
            ],
            "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
            "DEFAULT_PARSER_CLASSES": ["blindapi.parsers.BoundedJSONParser"],
            "DEFAULT_PAGINATION_CLASS": "blindapi.pagination.EnvelopePagination",
            "PAGE_SIZE": 100,
            "EXCEPTION_HANDLER": "blindapi.errors.exception_handler",
            "UNAUTHENTICATED_USER": None,
            "UNAUTHENTICATED_TOKEN": None,
            # no proxy in front: the client IP is REMOTE_ADDR, never X-Forwarded-For
            "NUM_PROXIES": 0,
        },
    )
