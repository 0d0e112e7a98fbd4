"""Reading PDFs: sources, the content walk and its tokenizer, CMaps, encodings, fonts, page text.

Owns everything that turns bytes into what a page draws and what each
font's declared route says it means: `source` (open a path, bytes or file
object), `contentstream` and `content` (the walk), `pagecontent` (the
records it fills), `geometry`, `imagecover` and `optionalcontent` (what the
walk measures and hides), `pagescan` (the walk shared with a helper
process), `fonts` (one font's route to Unicode: the record in `fontinfo`,
the analyses in `simplefonts` and `cidfonts`, with `tounicode`,
`fontprogram` and `fallbackroutes`), `cmaps`, `encodings`, `crosscheck` (a
font's map against its own program), `rankcheck` (against its widths and
glyph order), `soundroute`, `pagetext`, and `readers` (what PDFium, poppler
and pypdf extract).

May import: the foundation modules (`errors`, `model`, `settings`,
`usercache`, `atomic`). Never `lang`, `judge`, `repairs` or anything above.
"""
