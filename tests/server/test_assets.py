"""The client's files (app/web/assets.py): versioned URLs cached for good, ETags, gzip,
nothing outside static/, and an edit on disk served at once."""

from __future__ import annotations

import gzip
import json
import re
import time
from pathlib import Path

from fastapi.testclient import TestClient

from app.web.assets import Assets


def test_a_module_is_served_gzipped_with_an_etag(client: TestClient) -> None:
    plain = client.get("/static/js/replay.js", headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200
    assert plain.headers["content-type"].startswith("text/javascript")
    assert "content-encoding" not in plain.headers
    assert plain.headers["cache-control"] == "no-cache"
    packed = client.get("/static/js/replay.js", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.content == plain.content  # httpx decodes it
    etag = plain.headers["etag"]
    again = client.get("/static/js/replay.js", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    head = client.head("/static/js/replay.js", headers={"Accept-Encoding": "identity"})
    assert head.status_code == 200 and head.content == b""
    assert int(head.headers["content-length"]) == len(plain.content)


def test_versioned_urls_are_kept_for_good(client: TestClient) -> None:
    page = client.get("/").text
    found = re.search(r'<script type="importmap"[^>]*>(.*?)</script>', page, re.S)
    assert found is not None
    imports = json.loads(found.group(1))["imports"]
    assert "/static/js/i18n.js" in imports and "/static/js/replay.js" in imports
    url = imports["/static/js/i18n.js"]
    assert re.fullmatch(r"/static/js/i18n\.js\?v=[0-9a-f]{16}", url)
    assert f'href="{client.app.state.assets.url("css/app.css")}"' in page
    response = client.get(url)
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    # an old version's URL is still answered, with the current file, but not for good
    stale = client.get("/static/js/i18n.js?v=0000000000000000")
    assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"


def test_nothing_outside_static_is_served(client: TestClient) -> None:
    for path in (
        "/static/nope.js",
        "/static/../app/main.py",
        "/static/%2e%2e/app/main.py",
        "/static/js/../../app/config.py",
        "/static/js",
        "/static/js/a%00.js",
        "/static/" + "x" * 5000,
    ):
        assert client.get(path).status_code == 404, path


def test_a_file_edited_on_disk_is_served_at_once(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    module = tmp_path / "js" / "a.js"
    module.write_text("export const a = 1;\n")
    assets = Assets(tmp_path)
    first = assets.url("js/a.js")
    time.sleep(0.01)
    module.write_text("export const a = 2; // a longer file\n")
    item = assets.get("js/a.js")
    assert item is not None and item.body == module.read_bytes()
    assert assets.url("js/a.js") != first
    assert item.packed is None or gzip.decompress(item.packed) == item.body
    module.unlink()
    assert assets.get("js/a.js") is None and assets.import_map() == {"imports": {}}
