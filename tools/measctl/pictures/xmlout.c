// SPDX-License-Identifier: GPL-2.0
/*
 * measctl: text into XML (SVG and HTML pictures).  The five markup
 * characters become entities; control characters and bytes that are not
 * ASCII become '?', so that whatever a symbol table holds, the file stays
 * well-formed.
 */
#include <stdio.h>
#include "pictures/picture.h"

void xml_text(FILE *f, const char *s)
{
	unsigned char c;

	for (; (c = *s); s++) {
		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(c < 0x20 || c > 0x7e ? '?' : c, f);
		}
	}
}
