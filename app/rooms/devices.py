"""Seats on any device: the "continue on another device" link and its QR code.

The link is the room's page with a one-time key in the URL's *fragment*
(`/r/<code>#transfer=<key>`): browsers never send the fragment in a request, so the key
appears in no request line, proxy log or Referer. The page reads it, removes it from the
address bar and spends it with `POST /api/rooms/<code>/claim` (key in the body). The seat
gets a new token there; the older token stops working (`RoomService.claim_device`).
"""

from __future__ import annotations

from urllib.parse import quote

import qrcode
import qrcode.image.svg


def link(base_url: str, code: str, transfer: str) -> str:
    """The absolute link a phone's camera opens (`base_url` ends with a slash)."""
    return f"{base_url.rstrip('/')}/r/{quote(code)}#transfer={quote(transfer)}"


def qr_svg(url: str) -> str:
    """The link as a QR code in SVG, made on the server (`qrcode`: one path, no raster),
    sized by the page's CSS through its viewBox."""
    image = qrcode.make(
        url,
        image_factory=qrcode.image.svg.SvgPathImage,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        border=2,
    )
    svg: str = image.to_string(encoding="unicode")
    return svg
