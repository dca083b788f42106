#!/usr/bin/env python3
"""Check that a screenshot (PNG, 8-bit RGB or RGBA) is not blank.

usage: png_check.py PNG [--width W] [--colours RRGGBB,...]

Decodes the PNG with the standard library alone (no Pillow), prints one
line "WxH, N colours, S% not white, colours present: [...]" and exits 1
when the page looks blank (fewer than 50 colours, or 2% or less of the
pixels not white), when one of the given colours is missing, or when the
width is not W.  Used by t_report and t_exp_report.
"""
import argparse
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    pos, idat, w, h, depth, ctype = 8, b"", 0, 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6):
        sys.exit("unexpected PNG type %d/%d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours, nonwhite = set(), 0
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        for x in range(0, stride, bpp):
            px = bytes(line[x:x + 3])
            colours.add(px)
            if px != b"\xff\xff\xff":
                nonwhite += 1
        prev = line
    return w, h, colours, nonwhite / (w * h)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("png")
    ap.add_argument("--width", type=int)
    ap.add_argument("--colours", default="")
    args = ap.parse_args()
    w, h, colours, share = decode(args.png)
    want = [bytes.fromhex(c) for c in args.colours.split(",") if c]
    present = [c in colours for c in want]
    print("%dx%d, %d colours, %.1f%% not white, colours present: %s" % (
        w, h, len(colours), share * 100, present))
    if args.width is not None and w != args.width:
        sys.exit("the window is not %d px wide" % args.width)
    if len(colours) < 50:
        sys.exit("too few colours: blank?")
    if share <= 0.02:
        sys.exit("almost all white")
    if not all(present):
        sys.exit("a colour is missing")


if __name__ == "__main__":
    main()
