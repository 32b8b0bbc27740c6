// Package views renders the site's pages with templ. Components receive everything as typed
// parameters, read the request's language through T and Lang, and never query the catalog.
package views

import (
	"context"
	"incidentlib/internal/catalog"
	"net/url"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// Locale is the language of one request and what the language switch needs.
type Locale struct {
	Lang      catalog.Lang
	Localizer *i18n.Localizer
	Path      string // the request path after the language prefix, starting with "/"
	RawQuery  string // the request's query string, kept by the language switch
	Origin    string // scheme and host for absolute links, e.g. "https://example.org"
}

type localeKey struct{}

// WithLocale returns a context carrying l.
func WithLocale(ctx context.Context, l *Locale) context.Context {
	return context.WithValue(ctx, localeKey{}, l)
}

// fallback lets a component render (in Korean, the default) when no locale was set, so an
// error page can always be shown.
var fallback = &Locale{Lang: catalog.Langs[0], Path: "/"}

// LocaleOf returns the request's locale, or the Korean fallback.
func LocaleOf(ctx context.Context) *Locale {
	if l, ok := ctx.Value(localeKey{}).(*Locale); ok && l != nil {
		return l
	}
	return fallback
}

// Lang is the language of the page being rendered.
func Lang(ctx context.Context) catalog.Lang { return LocaleOf(ctx).Lang }

// T returns the message id in the page's language, filled with data (a map of template fields).
// A missing message shows its id, which the locale tests catch.
func T(ctx context.Context, id string, data ...map[string]any) string {
	l := LocaleOf(ctx)
	if l.Localizer == nil {
		return id
	}
	cfg := &i18n.LocalizeConfig{MessageID: id}
	if len(data) > 0 {
		cfg.TemplateData = data[0]
	}
	s, err := l.Localizer.Localize(cfg)
	if err != nil {
		return id
	}
	return s
}

// N returns the message id in its plural form for count, with {{.Count}} filled.
func N(ctx context.Context, id string, count int, data ...map[string]any) string {
	l := LocaleOf(ctx)
	if l.Localizer == nil {
		return id
	}
	td := map[string]any{"Count": count}
	if len(data) > 0 {
		for k, v := range data[0] {
			td[k] = v
		}
	}
	s, err := l.Localizer.Localize(&i18n.LocalizeConfig{MessageID: id, PluralCount: count, TemplateData: td})
	if err != nil {
		return id
	}
	return s
}

// OtherLang is the language the switch leads to.
func OtherLang(ctx context.Context) catalog.Lang { return Lang(ctx).Other() }

// alternates are the page in each language, then the default for other readers, as hreflang
// and absolute URL pairs.
func alternates(ctx context.Context) [][2]string {
	var out [][2]string
	for _, l := range catalog.Langs {
		out = append(out, [2]string{string(l), AbsURL(ctx, SwitchURL(ctx, l))})
	}
	return append(out, [2]string{"x-default", AbsURL(ctx, SwitchURL(ctx, catalog.Langs[0]))})
}

// SwitchURL is the current page in another language, with its query kept.
func SwitchURL(ctx context.Context, lang catalog.Lang) string {
	l := LocaleOf(ctx)
	u := "/" + string(lang) + l.Path
	if l.RawQuery != "" {
		u += "?" + l.RawQuery
	}
	return u
}

// SwitchLinkURL is where the language switch leads: an address that remembers the choice in a
// cookie and redirects to the page in the other language. Pages themselves set no cookie, so
// shared caches can keep them.
func SwitchLinkURL(ctx context.Context) string {
	lang := OtherLang(ctx)
	return "/lang/" + string(lang) + "?to=" + url.QueryEscape(SwitchURL(ctx, lang))
}

// AbsURL makes a site path absolute for canonical links, feeds and link previews.
func AbsURL(ctx context.Context, path string) string {
	return strings.TrimSuffix(LocaleOf(ctx).Origin, "/") + path
}

// KindNoun is a kind's name inside a sentence: lower case in English ("no organization").
func KindNoun(ctx context.Context, kind catalog.Kind) string {
	label := KindLabel(ctx, kind)
	if Lang(ctx) == catalog.English && label != "" {
		return strings.ToLower(label[:1]) + label[1:]
	}
	return label
}
