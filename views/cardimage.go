package views

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"incidentlib/internal/catalog"
	"incidentlib/static"
)

// Link-preview images: a 1200×630 PNG per case and language with its id, organization, date,
// headline and main tags, drawn with an embedded Korean font so Hangul shows on any machine.

const cardW, cardH = 1200, 630

var (
	cardFontsOnce sync.Once
	cardRegular   *opentype.Font
	cardBold      *opentype.Font
	cardFontsErr  error
)

func cardFonts() (*opentype.Font, *opentype.Font, error) {
	cardFontsOnce.Do(func() {
		load := func(name string) *opentype.Font {
			b, err := static.Fonts.ReadFile("fonts/" + name)
			if err != nil {
				cardFontsErr = err
				return nil
			}
			f, err := opentype.Parse(b)
			if err != nil {
				cardFontsErr = err
			}
			return f
		}
		cardRegular, cardBold = load("NanumSquareR.ttf"), load("NanumSquareB.ttf")
	})
	return cardRegular, cardBold, cardFontsErr
}

var (
	cardBg     = color.RGBA{0xfb, 0xfa, 0xf8, 0xff}
	cardInk    = color.RGBA{0x1d, 0x1f, 0x23, 0xff}
	cardMuted  = color.RGBA{0x5b, 0x61, 0x6b, 0xff}
	cardAccent = color.RGBA{0xb4, 0x43, 0x2f, 0xff}
	cardRule   = color.RGBA{0xe3, 0xe0, 0xda, 0xff}
	cardBlue   = color.RGBA{0x2f, 0x6d, 0xb4, 0xff}
	cardBrown  = color.RGBA{0x8a, 0x5a, 0x00, 0xff}
)

// CardPNG draws a case's link-preview image in the language of ctx.
func CardPNG(ctx context.Context, c catalog.Case) ([]byte, error) {
	regular, bold, err := cardFonts()
	if err != nil {
		return nil, err
	}
	face := func(f *opentype.Font, size float64) (font.Face, error) {
		return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	}
	small, err := face(regular, 30)
	if err != nil {
		return nil, err
	}
	meta, err := face(bold, 32)
	if err != nil {
		return nil, err
	}
	big, err := face(bold, 60)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, cardW, cardH))
	draw.Draw(img, img.Bounds(), image.NewUniform(cardBg), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(0, 0, 18, cardH), image.NewUniform(cardAccent), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(70, 150, cardW-70, 152), image.NewUniform(cardRule), image.Point{}, draw.Src)

	text := func(f font.Face, col color.Color, x, y int, s string) int {
		d := &font.Drawer{Dst: img, Src: image.NewUniform(col), Face: f, Dot: fixed.P(x, y)}
		d.DrawString(s)
		return d.Dot.X.Round()
	}
	x := text(meta, cardAccent, 70, 110, c.ID)
	x = text(small, cardMuted, x+28, 110, c.Org.Label+" · "+FormatCaseDate(Lang(ctx), c.Date, c.Zone))
	_ = x
	brand := T(ctx, "site.name")
	bw := font.MeasureString(small, brand).Round()
	text(small, cardMuted, cardW-70-bw, 110, brand)

	headline := orDefault(c.Text.Headline, c.Text.Title)
	lines := wrapText(big, headline, cardW-140, 4)
	y := 250
	for _, l := range lines {
		text(big, cardInk, 70, y, l)
		y += 78
	}
	// main cause and main component as pills at the bottom
	px := 70
	for _, t := range mainTags(c) {
		w := font.MeasureString(small, t.Label).Round() + 40
		if px+w > cardW-70 {
			break
		}
		col := map[catalog.Kind]color.RGBA{catalog.KindComponent: cardBlue, catalog.KindSymptom: cardBrown}[t.Kind]
		if t.Kind == catalog.KindCause {
			col = cardAccent
		}
		pill(img, px, cardH-110, w, 54, col)
		text(small, col, px+20, cardH-73, t.Label)
		px += w + 16
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// mainTags are the tags a card shows: main cause, main component, then the next ones.
func mainTags(c catalog.Case) []catalog.Term {
	var out []catalog.Term
	for _, k := range []catalog.Kind{catalog.KindCause, catalog.KindComponent, catalog.KindSymptom} {
		ts := c.Values(k)
		out = append(out, ts[:min(1, len(ts))]...)
	}
	return out
}

// pill draws a rounded outline.
func pill(img *image.RGBA, x, y, w, h int, col color.Color) {
	r := h / 2
	for yy := y; yy < y+h; yy++ {
		for xx := x; xx < x+w; xx++ {
			cx := xx
			switch {
			case xx < x+r:
				cx = x + r
			case xx >= x+w-r:
				cx = x + w - r - 1
			}
			dx, dy := float64(xx-cx), float64(yy-(y+r))
			d := dx*dx + dy*dy
			outer := float64(r) * float64(r)
			inner := float64(r-3) * float64(r-3)
			if d <= outer && (d >= inner || (yy < y+3 || yy >= y+h-3) && xx >= x+r && xx < x+w-r) {
				img.Set(xx, yy, col)
			}
		}
	}
}

// wrapText breaks s into at most max lines of at most width pixels, at spaces (and inside a
// word too long for a line); the last line ends with … when text is left over.
func wrapText(f font.Face, s string, width, max int) []string {
	var lines []string
	var cur string
	fits := func(t string) bool { return font.MeasureString(f, t).Round() <= width }
	for _, w := range strings.Fields(s) {
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if fits(try) {
			cur = try
			continue
		}
		if cur != "" {
			lines = append(lines, cur)
		}
		cur = w
		for !fits(cur) { // a word longer than a line
			r := []rune(cur)
			n := len(r)
			for n > 1 && !fits(string(r[:n])) {
				n--
			}
			lines = append(lines, string(r[:n]))
			cur = string(r[n:])
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) > max {
		last := []rune(lines[max-1])
		for len(last) > 0 && !fits(string(last)+"…") {
			last = last[:len(last)-1]
		}
		lines = append(lines[:max-1], strings.TrimRight(string(last), " ")+"…")
	}
	return lines
}

// IconPNG draws the site's icon, the letters IL on a red rounded square, size pixels wide.
func IconPNG(size int) ([]byte, error) {
	_, bold, err := cardFonts()
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	r := float64(size) * 0.2
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			cx := math.Max(r, math.Min(float64(size)-r, float64(x)+.5))
			cy := math.Max(r, math.Min(float64(size)-r, float64(y)+.5))
			if dx, dy := float64(x)+.5-cx, float64(y)+.5-cy; dx*dx+dy*dy <= r*r {
				img.Set(x, y, cardAccent)
			}
		}
	}
	face, err := opentype.NewFace(bold, &opentype.FaceOptions{Size: float64(size) * 0.56, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	w := font.MeasureString(face, "IL").Round()
	m := face.Metrics()
	base := (size + (m.Ascent.Round() - m.Descent.Round())) / 2
	d := &font.Drawer{Dst: img, Src: image.NewUniform(color.White), Face: face, Dot: fixed.P((size-w)/2, base)}
	d.DrawString("IL")
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ICO wraps PNG images in the ICO format browsers ask for at /favicon.ico.
func ICO(pngs map[int][]byte, sizes []int) []byte {
	var b bytes.Buffer
	le := func(v uint32, n int) {
		for i := 0; i < n; i++ {
			b.WriteByte(byte(v >> (8 * i)))
		}
	}
	le(0, 2)
	le(1, 2) // icon
	le(uint32(len(sizes)), 2)
	offset := 6 + 16*len(sizes)
	for _, s := range sizes {
		dim := byte(s)
		if s >= 256 {
			dim = 0
		}
		b.WriteByte(dim)
		b.WriteByte(dim)
		b.WriteByte(0) // no palette
		b.WriteByte(0)
		le(1, 2)  // planes
		le(32, 2) // bits per pixel
		le(uint32(len(pngs[s])), 4)
		le(uint32(offset), 4)
		offset += len(pngs[s])
	}
	for _, s := range sizes {
		b.Write(pngs[s])
	}
	return b.Bytes()
}
