/* page.js: draws the HTML report from its JSON blocks (PLACEHOLDER: h-html-js writes it) */
"use strict";
document.body.dataset.rendered = "1";
