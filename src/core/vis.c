/* Escaping text for the terminal: see vis.h. */
#include "core/vis.h"

#include <stdio.h>
#include <string.h>

/* The escape of c (a control character or DEL) in e (5 bytes). */
static void esc_of(unsigned char c, char e[5])
{
	if (c == '\n')
		snprintf(e, 5, "\\n");
	else if (c == '\t')
		snprintf(e, 5, "\\t");
	else if (c == '\r')
		snprintf(e, 5, "\\r");
	else
		snprintf(e, 5, "\\x%02x", c);
}

/* The escaped length of c. */
static size_t esc_len(unsigned char c, int keep_newlines)
{
	char e[5];

	if ((c < 0x20 && !(c == '\n' && keep_newlines)) || c == 0x7f) {
		esc_of(c, e);
		return strlen(e);
	}
	return 1;
}

char *clyde_vis(char *buf, size_t cap, const char *s, int keep_newlines)
{
	size_t len = strlen(s), o = 0, need = 0, room;
	char tail[48];
	size_t tl;

	if (cap == 0)
		return buf;
	for (size_t i = 0; i < len; i++)
		need += esc_len((unsigned char)s[i], keep_newlines);
	snprintf(tail, sizeof(tail), "... (%zu bytes)", len);
	tl = strlen(tail);
	/* All of it when it fits, else as much as leaves room for the tail. */
	room = need < cap ? need : (cap > tl + 1 ? cap - tl - 1 : 0);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[5] = { (char)c, '\0' };
		size_t el;

		if (esc_len(c, keep_newlines) > 1)
			esc_of(c, e);
		el = strlen(e);
		if (o + el > room)
			break;
		memcpy(buf + o, e, el);
		o += el;
	}
	if (need >= cap && o + tl < cap) {
		memcpy(buf + o, tail, tl);
		o += tl;
	}
	buf[o] = '\0';
	return buf;
}

int clyde_vis_fputs(const char *s, FILE *f, int keep_newlines)
{
	int rc = 0;

	while (*s && rc != EOF) {
		size_t n = 0;
		char e[5];

		/* The plain run up to the next character to escape, then
		 * that one's escape. */
		while (s[n] && esc_len((unsigned char)s[n], keep_newlines) == 1)
			n++;
		if (n && fwrite(s, 1, n, f) != n)
			return EOF;
		s += n;
		if (*s) {
			esc_of((unsigned char)*s++, e);
			rc = fputs(e, f);
		}
	}
	return rc == EOF ? EOF : 0;
}

size_t clyde_utf8_seq_len(const char *s, size_t avail)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;
	unsigned char lo = 0x80, hi = 0xbf;

	if (!avail)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		n = 2;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		n = 3;
		if (u[0] == 0xe0)
			lo = 0xa0; /* overlong */
		else if (u[0] == 0xed)
			hi = 0x9f; /* UTF-16 surrogates */
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		n = 4;
		if (u[0] == 0xf0)
			lo = 0x90; /* overlong */
		else if (u[0] == 0xf4)
			hi = 0x8f; /* above U+10FFFF */
	} else {
		return 0;
	}
	if (avail < n)
		return 0;
	if (u[1] < lo || u[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (u[i] < 0x80 || u[i] > 0xbf)
			return 0;
	return n;
}
