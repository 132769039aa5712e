// Package sanitize makes a string read from a data file (a label in
// meta.json or fleet.json, a note, a platform name, an error quoting one)
// safe for the medium it is written to, so that a file cannot drive the
// reader's terminal or forge the structure of a report.
//
// # Media
//
//   - [Terminal]: control characters (C0, DEL, C1, the escape that starts
//     every terminal sequence), Unicode format characters (the bidi
//     overrides and isolates that reorder what follows, zero-width
//     characters), line and paragraph separators and invalid UTF-8 are
//     written as Go escapes (\x1b, \u202e), visible and inert.
//   - [Markdown]: what Terminal escapes, then every character with a
//     meaning in CommonMark or GitHub tables (| [ ] ( ) < > ` * _ \ # ! ~
//     &, and a line break, which would end a table row), so a cell stays
//     one cell of plain text: no link (javascript: or any other), no image,
//     no raw HTML such as <img onerror=...>.
//   - [HTML]: html.EscapeString, as the HTML report and the notebooks
//     already escape (html/template does the same in report).
//
// [Writer] applies Terminal's escapes to a whole stream but for \n, \t
// and \r: wrapped around a command's standard output and error it is the
// catch-all for every message, whatever the code path.
//
// Apply it where a string leaves umlab, at the writer of each medium,
// never to data in memory or on disk: the files keep what was measured.
//
// It imports no umlab package.
package sanitize
