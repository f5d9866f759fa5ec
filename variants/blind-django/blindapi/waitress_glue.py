"""Two narrow adjustments of waitress 2.1's HTTP channel (everything else is default).

1. HEAD: waitress 2.1 sends whatever body the application returns, and Django 3.2
   returns the GET body for HEAD. The task below sends the GET headers (Content-Length
   included) and counts the body as written without sending it, so a kept-alive
   connection stays in sync and stays open.
2. Errors waitress raises itself before the application runs (malformed request line
   or URI, headers over 256 KiB, body over 1 GiB, bad chunked encoding) are sent in
   the document's error envelope as JSON instead of waitress's text/plain page.
   Status codes and limits are waitress's own.
"""
import json

from waitress.channel import HTTPChannel
from waitress.task import ErrorTask, WSGITask

_CODES = {
    400: "bad_request",
    413: "request_too_large",
    431: "headers_too_large",
    501: "not_implemented",
}


class HeadAwareTask(WSGITask):
    def write(self, data):
        if self.request.command != "HEAD":
            return super().write(data)
        if not self.complete:
            raise RuntimeError("start_response was not called before body written")
        if not self.wrote_header:
            self.channel.write_soon(self.build_response_header())
            self.wrote_header = True
            self.chunked_response = False  # nothing follows the header of a HEAD response
        self.content_bytes_written += len(data)


class JsonErrorTask(ErrorTask):
    def execute(self):
        e = self.request.error
        code = e.code
        body = json.dumps({"error": {
            "type": "api_error" if code == 500 else "invalid_request_error",
            "code": _CODES.get(code),
            "message": "%s: %s" % (e.reason, e.body),
            "param": None,
            "path": None,
        }}).encode("utf-8")
        self.status = "%d %s" % (code, e.reason)
        self.response_headers.append(("Content-Type", "application/json"))
        self.response_headers.append(("Connection", "close"))
        self.close_on_finish = True
        self.content_length = len(body)
        self.write(body)


class ApiChannel(HTTPChannel):
    task_class = HeadAwareTask
    error_task_class = JsonErrorTask
