/* html_page.h: the HTML report's style and script, src/report/html/
 * page.css and page.js, made string literals at build time
 * (Makefile.am: the generated src/report/html_page.c), so the page
 * carries them inline and needs no network (html-contract.md). */
#ifndef DLLPCHECK_HTML_PAGE_H
#define DLLPCHECK_HTML_PAGE_H

extern const char html_page_css[];
extern const char html_page_js[];

#endif
