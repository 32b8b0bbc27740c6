package views

import (
	"context"
	"strconv"

	"incidentlib/internal/catalog"
)

// Term is a vocabulary value as views show it.
type Term = catalog.Term

func pageTitle(ctx context.Context, title string) string {
	if title == "" {
		return T(ctx, "site.name")
	}
	return title + " · " + T(ctx, "site.name")
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func ogLocale(lang catalog.Lang) string {
	if lang == catalog.Korean {
		return "ko_KR"
	}
	return "en_US"
}

func langCode(lang catalog.Lang) string {
	if lang == catalog.Korean {
		return "한국어"
	}
	return "EN"
}

// clip shortens s to at most n characters at a word boundary, adding an ellipsis.
func clip(s string, n int) string { return catalog.Clip(s, n) }

// KindLabel is the translated name of a kind ("Cause", "원인").
func KindLabel(ctx context.Context, kind catalog.Kind) string { return T(ctx, "kind."+string(kind)) }

// KindPlural is the translated heading for many values of a kind ("Causes", "원인").
func KindPlural(ctx context.Context, kind catalog.Kind) string { return T(ctx, "kinds."+string(kind)) }

func colHead(ctx context.Context, kind catalog.Kind) string {
	if kind == caseColumn {
		return T(ctx, "graph.cases")
	}
	return KindPlural(ctx, kind)
}

func statusText(status int) string { return strconv.Itoa(status) }

func emptyFilter() catalog.Filter { return catalog.Filter{} }

// mcpConfig is the JSON an MCP client's configuration file needs for this server.
func mcpConfig(url string) string {
	return "{\n  \"mcpServers\": {\n    \"incident-library\": {\n      \"type\": \"http\",\n      \"url\": \"" + url + "\"\n    }\n  }\n}"
}
