package views

import (
	"context"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
	"strconv"
	"strings"

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

// yearLabel names a column: the year, shortened to '19 when many columns share the chart, or
// "≤2014" for the grouped earlier years.
func yearLabel(y catalog.YearCount, n int) string {
	s := strconv.Itoa(y.Year)
	if n > 8 {
		s = "'" + strconv.Itoa(y.Year%100 + 100)[1:]
	}
	if y.Before {
		s = "≤" + s
	}
	return s
}

// topicPageURL is a page of a topic's cases; page 1 is the topic's own address.
func topicPageURL(lang catalog.Lang, t catalog.Term, page int) string {
	if page <= 1 {
		return TopicURL(lang, t)
	}
	return TopicURL(lang, t) + "?page=" + strconv.Itoa(page)
}

// topicDescription is a topic page's description for link previews: its definition and count.
func topicDescription(ctx context.Context, t catalog.Topic) string {
	return strings.TrimSpace(t.Definition + " " + N(ctx, "topic.count", t.Count))
}

// CountryName is a country's name in the page's language, from its ISO 3166 code ("KR" →
// "South Korea", "대한민국"); the code itself when unknown.
func CountryName(lang catalog.Lang, code string) string {
	r, err := language.ParseRegion(code)
	if err != nil {
		return code
	}
	tag := language.English
	if lang == catalog.Korean {
		tag = language.Korean
	}
	if n := display.Regions(tag).Name(r); n != "" {
		return n
	}
	return code
}
