package views

import (
	"math"
	"strconv"

	"incidentlib/internal/catalog"
)

// Box plots of durations on a log scale from one minute to 30 days, so a 5-minute detection
// and a 3-day recovery fit on one axis.
const (
	plotW        = 400.0
	plotMinLog   = 0.0    // log10(1 minute)
	plotMaxLog   = 4.6355 // log10(30 days in minutes)
	plotLeftPad  = 6.0
	plotRightPad = 6.0
)

// plotX is the x of a duration in minutes on the plot.
func plotX(m float64) float64 {
	if m < 1 {
		m = 1
	}
	l := math.Log10(m)
	l = math.Max(plotMinLog, math.Min(plotMaxLog, l))
	return plotLeftPad + (l-plotMinLog)/(plotMaxLog-plotMinLog)*(plotW-plotLeftPad-plotRightPad)
}

func fx(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// boxGeom is the geometry of one box plot: whiskers at the extremes, box from the first to the
// third quartile, a line at the median, a dot per case.
type boxGeom struct {
	Min, Q1, Med, Q3, Max string
	BoxW                  string
	Dots                  []string
	N                     int
}

func box(sorted []int) (boxGeom, bool) {
	if len(sorted) == 0 {
		return boxGeom{}, false
	}
	q := func(p float64) float64 { return plotX(catalog.Quantile(sorted, p)) }
	g := boxGeom{Min: fx(q(0)), Q1: fx(q(.25)), Med: fx(q(.5)), Q3: fx(q(.75)), Max: fx(q(1)), N: len(sorted)}
	g.BoxW = fx(math.Max(1, q(.75)-q(.25)))
	for _, m := range sorted {
		g.Dots = append(g.Dots, fx(plotX(float64(m))))
	}
	return g, true
}

// axisTicks are the labelled durations of the axis.
var axisTicks = []int{1, 10, 60, 360, 1440, 10080}

func tickX(m int) string { return fx(plotX(float64(m))) }

// medianText is a spread's median as a duration, or – when unknown.
func medianText(lang catalog.Lang, sorted []int) string {
	if len(sorted) == 0 {
		return "–"
	}
	m := int(math.Round(catalog.Quantile(sorted, .5)))
	return FormatMinutes(lang, &m)
}

func quartileText(lang catalog.Lang, sorted []int) string {
	if len(sorted) < 2 {
		return "–"
	}
	a, b := int(math.Round(catalog.Quantile(sorted, .25))), int(math.Round(catalog.Quantile(sorted, .75)))
	return FormatMinutes(lang, &a) + " – " + FormatMinutes(lang, &b)
}
