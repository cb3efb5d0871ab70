# SPDX-License-Identifier: MIT
"""The server's page files (``--web DIR``, examples/server/server.py
add_web_routes), run by tests/tools/online_test.sh: a scratch DIR with the
page's kinds of files, a file outside it and a symbolic link to that file;
the app on a free 127.0.0.1 port, asked with raw HTTP request lines (no
client normalises the paths). The page's files come with their types
(application/wasm among them) and ``/`` is index.html; a path with ``..``
(plain or percent-encoded, also ``%2f``) is refused, a link out of DIR,
a directory and a missing file are answered 404; the API and the
WebSocket keep their paths.

    python3 tests/server/test_web.py DIR
"""

import asyncio
import os
import sys
from typing import List, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import ROOT  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "examples", "server"))
from aiohttp import web  # noqa: E402

import server as srv  # noqa: E402
from storage import SQLiteStorage  # noqa: E402

failures: List[str] = []


def check(cond: bool, what: str) -> None:
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


async def get(port: int, path: str, method: str = "GET") -> Tuple[int, dict, bytes]:
    """One raw request: the path is sent exactly as given."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(("%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
                  % (method, path, port)).encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:] if ":" in l)}
    return status, headers, body


async def main(scratch: str) -> int:
    root = os.path.join(scratch, "web")
    os.makedirs(os.path.join(root, "wasm"), exist_ok=True)
    files = {"index.html": b"<!doctype html><title>page</title>", "app.mjs": b"export {};",
             "style.css": b"body{}", "wasm/ball.wasm": b"\0asm\1\0\0\0", "favicon.svg": b"<svg/>",
             "rules.md": b"# rules", "data.bin": b"\1\2"}
    for name, body in files.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(body)
    secret = os.path.join(scratch, "secret.txt")
    with open(secret, "w") as f:
        f.write("not for the web")
    os.symlink(secret, os.path.join(root, "link.txt"))
    os.symlink(os.path.join(root, "app.mjs"), os.path.join(root, "inside-link.mjs"))

    storage = SQLiteStorage(os.path.join(scratch, "web.sqlite"))
    server = srv.Server(storage, [])
    runner = web.AppRunner(srv.make_app(server, root))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        types = {"/": ("text/html", "index.html"), "/index.html": ("text/html", "index.html"),
                 "/app.mjs": ("text/javascript", "app.mjs"), "/style.css": ("text/css", "style.css"),
                 "/wasm/ball.wasm": ("application/wasm", "wasm/ball.wasm"),
                 "/favicon.svg": ("image/svg+xml", "favicon.svg"), "/rules.md": ("text/plain", "rules.md"),
                 "/data.bin": ("application/octet-stream", "data.bin"),
                 "/?game=abc": ("text/html", "index.html"),
                 "/inside-link.mjs": ("text/javascript", "app.mjs")}
        for path, (ctype, name) in types.items():
            status, headers, body = await get(port, path)
            check(status == 200, "%s: status %d" % (path, status))
            check(headers.get("content-type", "").startswith(ctype),
                  "%s: Content-Type %r, not %s" % (path, headers.get("content-type"), ctype))
            # index.html gets the server's bar (names, lobby, rematch) added
            want = files[name] + (srv.GAMEBAR_TAG if name == "index.html" else b"")
            check(body == want, "%s: the body of %s" % (path, name))
            check(headers.get("x-content-type-options") == "nosniff", "%s: nosniff" % path)
        status, headers, body = await get(port, "/app.mjs", "HEAD")
        check(status == 200 and body == b"", "HEAD /app.mjs: %d, %d bytes" % (status, len(body)))
        for path in ("/../secret.txt", "/wasm/../../secret.txt", "/%2e%2e/secret.txt",
                     "/..%2fsecret.txt", "/wasm/..%2f..%2fsecret.txt", "/%2E%2E/%2E%2E/etc/passwd",
                     "/..\\secret.txt", "/wasm/%2e%2e%5c..%5csecret.txt"):
            status, _, body = await get(port, path)
            check(status in (403, 404), "%s: status %d, not refused" % (path, status))
            check(b"not for the web" not in body, "%s: the file outside DIR was served" % path)
        for path in ("/link.txt", "/wasm", "/wasm/", "/nothing.html", "/%00", "//etc/passwd",
                     "/" + secret):
            status, _, body = await get(port, path)
            check(status in (403, 404), "%s: status %d, not 404" % (path, status))
            check(b"not for the web" not in body, "%s: the file outside DIR was served" % path)
        status, headers, _ = await get(port, "/api/games")
        check(status == 200 and headers.get("content-type", "").startswith("application/json"),
              "/api/games is still the lobby (%d)" % status)
        status, _, _ = await get(port, "/ws")
        check(status != 404 and status != 200, "/ws is still the WebSocket (%d without an upgrade)" % status)
        # the lobby's own files, whatever --web serves
        for path, ctype, marker in (("/lobby/", "text/html", b"lobby.mjs"),
                                    ("/lobby/lobby.mjs", "text/javascript", b"/api/games"),
                                    ("/lobby/gamebar.mjs", "text/javascript", b"rematch"),
                                    ("/lobby/lobby.css", "text/css", b"--atk")):
            status, headers, body = await get(port, path)
            check(status == 200 and headers.get("content-type", "").startswith(ctype)
                  and marker in body, "%s: %d %r" % (path, status, headers.get("content-type")))
        for path in ("/lobby/../server.py", "/lobby/%2e%2e/server.py", "/lobby/..%2fserver.py"):
            status, _, body = await get(port, path)
            check(status in (403, 404) and b"def main" not in body,
                  "%s: status %d, the server's source not served" % (path, status))
    finally:
        await runner.cleanup()
        server.close()
    print("web: %s" % ("ok" if not failures else "%d failures" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
