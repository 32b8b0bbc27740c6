package views

import (
	"strconv"

	"incidentlib/internal/catalog"
)

func maxYear(ys []catalog.YearCount) int {
	m := 1
	for _, y := range ys {
		m = max(m, y.Count)
	}
	return m
}

func maxFacet(fs []catalog.Facet) int {
	m := 1
	for _, f := range fs {
		m = max(m, f.Count)
	}
	return m
}

// yearLabel shortens years to '19 when many columns share the chart.
func yearLabel(y, n int) string {
	if n > 8 {
		return "'" + strconv.Itoa(y%100 + 100)[1:]
	}
	return strconv.Itoa(y)
}
