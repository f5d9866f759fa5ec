#!/usr/bin/python3
"""Start the API: Django 3.2 + Django REST framework 3.14, served by waitress 2.1.

    /usr/bin/python3 server.py --port 0 --window-seconds N [--host 127.0.0.1]

Prints one JSON line {"url": ..., "keys": {"main": ..., "other": ...}} once listening.
SIGTERM / SIGINT stop it with exit status 0.
"""
import argparse
import json
import logging
import os
import signal
import socket
import sys
import threading

sys.dont_write_bytecode = True  # keep the variant folder free of __pycache__

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--window-seconds", type=float, default=60.0,
                        help="rate-limit window (document: 60); ceilings stay 100 and 20")
    parser.add_argument("--threads", type=int, default=4, help="waitress worker threads")
    parser.add_argument("--allowed-host", action="append", default=[],
                        help="extra Host header value Django accepts (repeatable)")
    args = parser.parse_args(argv)
    if args.window_seconds <= 0:
        parser.error("--window-seconds must be positive")
    return args


def bind_socket(host, port):
    """Bind (and listen on) the port ourselves so nothing can take it before waitress."""
    infos = socket.getaddrinfo(host, port, socket.AF_UNSPEC, socket.SOCK_STREAM, 0,
                               socket.AI_PASSIVE)
    family, socktype, proto, _, sockaddr = infos[0]
    sock = socket.socket(family, socktype, proto)
    if family == socket.AF_INET6:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(sockaddr)
    sock.listen(1024)
    return sock


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    from blindapi import config

    config.WINDOW_SECONDS = args.window_seconds

    import django
    from django.conf import settings

    from blindapi.settings import django_settings

    allowed = ["127.0.0.1", "localhost", "[::1]", args.host] + args.allowed_host
    settings.configure(**django_settings(sorted(set(allowed))))
    django.setup()

    from django.core.wsgi import get_wsgi_application
    from waitress.server import create_server

    from blindapi.seed import seed

    application = get_wsgi_application()
    keys = seed()

    sock = bind_socket(args.host, args.port)
    # SERVER_NAME (used by Django when a request has no Host header) is the bound host,
    # not waitress's placeholder "waitress.invalid", which ALLOWED_HOSTS would refuse.
    server = create_server(application, sockets=[sock], threads=args.threads,
                           server_name=args.host)
    from blindapi.waitress_glue import ApiChannel

    server.channel_class = ApiChannel  # HEAD without body; JSON for waitress's own errors
    port = sock.getsockname()[1]
    host = args.host
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = "[%s]" % host

    stopping = threading.Event()

    def stop(signum, frame):
        if stopping.is_set():
            os._exit(0)
        stopping.set()
        # a request still running must not hold the exit beyond ~1.5 s
        timer = threading.Timer(1.5, os._exit, args=(0,))
        timer.daemon = True
        timer.start()
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    sys.stdout.write(json.dumps({"url": "http://%s:%d" % (host, port), "keys": keys}) + "\n")
    sys.stdout.flush()

    try:
        server.run()  # returns after SystemExit/KeyboardInterrupt, workers shut down
    except SystemExit:
        pass
    finally:
        try:
            server.close()
        except Exception:
            pass
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
