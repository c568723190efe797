// Command termshot renders a terminal screen captured with
// `tmux capture-pane -e -p` (text with SGR colour escapes) as a PNG, for
// the README's screenshot (scripts/screenshot). It reads the capture on
// stdin and writes the PNG to the path given by -o.
//
// It understands what tmux emits: SGR 0 (reset), 1 (bold), 2 (dim),
// 4 (underline), 7 (reverse), 22/24/27, 30-37, 39, 40-47, 49, 90-97,
// 100-107, 38;5;n / 48;5;n and 38;2;r;g;b / 48;2;r;g;b. Other escapes are
// skipped. The font is DejaVu Sans Mono when installed (Debian's
// fonts-dejavu-core), else Go's built-in 7x13 bitmap font.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

type cell struct {
	r         rune
	fg, bg    color.RGBA
	bold, ul  bool
	hasFG     bool
	hasBG     bool
	dim, rev  bool
	continued bool // the right half of a wide rune
}

var (
	defaultFG = color.RGBA{0xd0, 0xd0, 0xd0, 0xff}
	defaultBG = color.RGBA{0x1c, 0x1c, 0x1c, 0xff}
)

// xterm's 16 colours.
var ansi16 = []color.RGBA{
	{0x00, 0x00, 0x00, 0xff}, {0xcd, 0x31, 0x31, 0xff}, {0x0d, 0xbc, 0x79, 0xff}, {0xe5, 0xe5, 0x10, 0xff},
	{0x24, 0x72, 0xc8, 0xff}, {0xbc, 0x3f, 0xbc, 0xff}, {0x11, 0xa8, 0xcd, 0xff}, {0xe5, 0xe5, 0xe5, 0xff},
	{0x66, 0x66, 0x66, 0xff}, {0xf1, 0x4c, 0x4c, 0xff}, {0x23, 0xd1, 0x8b, 0xff}, {0xf5, 0xf5, 0x43, 0xff},
	{0x3b, 0x8e, 0xea, 0xff}, {0xd6, 0x70, 0xd6, 0xff}, {0x29, 0xb8, 0xdb, 0xff}, {0xff, 0xff, 0xff, 0xff},
}

func color256(n int) color.RGBA {
	switch {
	case n < 16:
		return ansi16[n]
	case n < 232:
		n -= 16
		level := func(v int) uint8 {
			if v == 0 {
				return 0
			}
			return uint8(55 + 40*v)
		}
		return color.RGBA{level(n / 36), level(n / 6 % 6), level(n % 6), 0xff}
	default:
		v := uint8(8 + 10*(n-232))
		return color.RGBA{v, v, v, 0xff}
	}
}

// parse turns the capture into rows of cells.
func parse(lines []string) [][]cell {
	var rows [][]cell
	cur := cell{}
	for _, line := range lines {
		var row []cell
		rs := []rune(line)
		for i := 0; i < len(rs); i++ {
			if rs[i] == 0x1b && i+1 < len(rs) && rs[i+1] == '[' {
				j := i + 2
				for j < len(rs) && (rs[j] < 0x40 || rs[j] > 0x7e) {
					j++
				}
				if j < len(rs) && rs[j] == 'm' {
					sgr(&cur, string(rs[i+2:j]))
				}
				i = j
				continue
			}
			if rs[i] == 0x1b { // another escape: skip its introducer
				i++
				continue
			}
			c := cur
			c.r = rs[i]
			row = append(row, c)
			if wide(rs[i]) {
				c.continued, c.r = true, ' '
				row = append(row, c)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func wide(r rune) bool {
	return r >= 0x1100 && (r <= 0x115f || (r >= 0x2e80 && r <= 0xa4cf) || (r >= 0xac00 && r <= 0xd7a3) || (r >= 0xf900 && r <= 0xfaff) || (r >= 0xff00 && r <= 0xff60) || (r >= 0x1f300 && r <= 0x1faff))
}

func sgr(c *cell, params string) {
	if params == "" {
		params = "0"
	}
	ps := strings.Split(params, ";")
	num := func(i int) int {
		if i >= len(ps) {
			return 0
		}
		n, _ := strconv.Atoi(ps[i])
		return n
	}
	for i := 0; i < len(ps); i++ {
		switch n := num(i); {
		case n == 0:
			*c = cell{}
		case n == 1:
			c.bold = true
		case n == 2:
			c.dim = true
		case n == 4:
			c.ul = true
		case n == 7:
			c.rev = true
		case n == 22:
			c.bold, c.dim = false, false
		case n == 24:
			c.ul = false
		case n == 27:
			c.rev = false
		case n >= 30 && n <= 37:
			c.fg, c.hasFG = ansi16[n-30], true
		case n == 39:
			c.hasFG = false
		case n >= 40 && n <= 47:
			c.bg, c.hasBG = ansi16[n-40], true
		case n == 49:
			c.hasBG = false
		case n >= 90 && n <= 97:
			c.fg, c.hasFG = ansi16[n-90+8], true
		case n >= 100 && n <= 107:
			c.bg, c.hasBG = ansi16[n-100+8], true
		case n == 38 || n == 48:
			var col color.RGBA
			switch num(i + 1) {
			case 5:
				col = color256(num(i + 2))
				i += 2
			case 2:
				col = color.RGBA{uint8(num(i + 2)), uint8(num(i + 3)), uint8(num(i + 4)), 0xff}
				i += 4
			default:
				continue
			}
			if n == 38 {
				c.fg, c.hasFG = col, true
			} else {
				c.bg, c.hasBG = col, true
			}
		}
	}
}

func loadFace(size float64) (font.Face, error) {
	for _, path := range []string{
		"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
		"/usr/share/fonts/TTF/DejaVuSansMono.ttf",
	} {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		f, err := opentype.Parse(raw)
		if err != nil {
			return nil, err
		}
		return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	}
	return basicfont.Face7x13, nil
}

func main() {
	out := flag.String("o", "screenshot.png", "output PNG `path`")
	size := flag.Float64("size", 15, "font size in pixels")
	flag.Parse()
	var lines []string
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		fail(err)
	}
	face, err := loadFace(*size)
	if err != nil {
		fail(err)
	}
	m := face.Metrics()
	adv, _ := face.GlyphAdvance('M')
	cw, ch := adv.Ceil(), (m.Ascent+m.Descent).Ceil()+2
	rows := parse(lines)
	cols := 0
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	pad := 12
	img := image.NewRGBA(image.Rect(0, 0, cols*cw+2*pad, len(rows)*ch+2*pad))
	draw.Draw(img, img.Bounds(), &image.Uniform{defaultBG}, image.Point{}, draw.Src)
	d := &font.Drawer{Dst: img, Face: face}
	for y, row := range rows {
		for x, c := range row {
			fg, bg := defaultFG, defaultBG
			if c.hasFG {
				fg = c.fg
			}
			if c.hasBG {
				bg = c.bg
			}
			if c.rev {
				fg, bg = bg, fg
			}
			if c.dim {
				fg = color.RGBA{fg.R / 2, fg.G / 2, fg.B / 2, 0xff}
			}
			x0, y0 := pad+x*cw, pad+y*ch
			if bg != defaultBG {
				draw.Draw(img, image.Rect(x0, y0, x0+cw, y0+ch), &image.Uniform{bg}, image.Point{}, draw.Src)
			}
			if c.continued || c.r == ' ' {
				continue
			}
			d.Src = &image.Uniform{fg}
			d.Dot = fixed.P(x0, y0+1+m.Ascent.Ceil())
			d.DrawString(string(c.r))
			if c.bold { // no bold face at hand: overstrike one pixel right
				d.Dot = fixed.P(x0+1, y0+1+m.Ascent.Ceil())
				d.DrawString(string(c.r))
			}
			if c.ul {
				draw.Draw(img, image.Rect(x0, y0+ch-2, x0+cw, y0+ch-1), &image.Uniform{fg}, image.Point{}, draw.Src)
			}
		}
	}
	f, err := os.Create(*out)
	if err != nil {
		fail(err)
	}
	if err := png.Encode(f, img); err != nil {
		fail(err)
	}
	if err := f.Close(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "termshot:", err)
	os.Exit(1)
}
