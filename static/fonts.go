package static

import "embed"

// Fonts holds the fonts the server draws link-preview images with: NanumSquare (regular and
// bold) by NAVER, under the SIL Open Font License 1.1 (fonts/OFL.txt). They are not served.
//
//go:embed fonts/*.ttf fonts/OFL.txt
var Fonts embed.FS
