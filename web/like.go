package web

import (
	"cmp"
	"context"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/catalog"
	"incidentlib/internal/model"
	"incidentlib/views"
	"incidentlib/views/mcptext"
)

// likeResults is how many cases "incidents like mine" returns, and the most the API gives.
const (
	likeResults    = 10
	maxLikeResults = 30
)

// readLikeText reads the description of "incidents like mine": any text, at most
// catalog.MaxLikeLen characters.
func readLikeText(c echo.Context) (string, error) {
	text := c.QueryParam("text")
	if n := utf8.RuneCountInString(text); n > catalog.MaxLikeLen {
		return "", inputErr("error.like_too_long", "text", map[string]any{"Limit": catalog.MaxLikeLen, "Count": n})
	}
	return text, nil
}

// showLike renders the "incidents like mine" page: the form, and the closest cases to the
// description once one is given.
func (s *Server) showLike(c echo.Context) error {
	text, err := readLikeText(c)
	if err != nil {
		return err
	}
	v := views.LikeView{Text: text, Asked: catalog.CleanQuery(text) != ""}
	if v.Asked {
		if v.Result, err = s.cat.Like(c.Request().Context(), pageLang(c), text, likeResults); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.LikePage(v))
}

// apiLike answers a description with the closest cases, as the page does.
func (s *Server) apiLike(c echo.Context) error {
	lang, err := apiLang(c)
	if err != nil {
		return err
	}
	text, err := readLikeText(c)
	if err != nil {
		return err
	}
	if catalog.CleanQuery(text) == "" {
		return inputErr("error.like_empty", "text", nil)
	}
	limit := likeResults
	if v := c.QueryParam("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > maxLikeResults {
			return inputErr("error.bad_limit", "limit", map[string]any{"Value": clipValue(v), "Max": maxLikeResults})
		}
	}
	r, err := s.cat.Like(c.Request().Context(), lang, text, limit)
	if err != nil {
		return err
	}
	return s.apiJSON(c, likeModel(s.apiContext(c, lang), lang, r))
}

// likeModel is the JSON answer to a description, for the API and MCP.
func likeModel(ctx context.Context, lang catalog.Lang, r catalog.LikeResult) model.Like {
	out := model.Like{Lang: lang, Text: r.Text, Found: []model.TermCount{}, Words: []string{}, Cases: []model.LikeCase{}}
	for _, f := range r.Found {
		out.Found = append(out.Found, model.TermCount{Term: term(f.Term), Count: f.Count})
	}
	for _, w := range r.Words {
		out.Words = append(out.Words, w.Raw)
	}
	cards := make([]catalog.Card, len(r.Cases))
	for i, c := range r.Cases {
		cards[i] = c.Card
	}
	for i, card := range cardsOf(ctx, lang, cards, summaryStart) {
		c := r.Cases[i]
		why := views.Reasons(ctx, c.Shared)
		if len(c.Shared) == 0 {
			why = ""
		}
		out.Cases = append(out.Cases, model.LikeCase{Card: card, Score: c.Score, Shared: terms(c.Shared), Words: append([]string{}, c.Common...), Why: why})
	}
	return out
}

var findSimilarTool = &mcp.Tool{
	Name:  "find_similar_incidents",
	Title: "Incidents like mine",
	Description: "Find the public incidents closest to a description of your own incident, in Korean or English (up to " +
		"2,000 characters: symptoms, trigger, the parts involved). Returns up to 10 cases, closest first, each with " +
		"the vocabulary values and the distinctive words it shares with the description, and the values the " +
		"description names (causes, symptoms, components, factors) with their case counts, to use as filters in " +
		"search_incidents or get_checklist. Use it for a paragraph; use search_incidents for a few keywords.",
	InputSchema: inputSchema[likeInput](),
	Annotations: readOnlyTool,
}

type likeInput struct {
	Text string       `json:"text" jsonschema:"a description of the incident, in Korean or English"`
	Lang catalog.Lang `json:"lang,omitempty" jsonschema:"language of the answer: en or ko"`
}

// toolFindSimilar answers a description as the page and the API do.
func (s *Server) toolFindSimilar(ctx context.Context, req *mcp.CallToolRequest, in likeInput) (*mcp.CallToolResult, model.Like, error) {
	lang := cmp.Or(in.Lang, defaultAPILang)
	ctx = s.toolLocale(ctx, lang)
	if catalog.CleanQuery(in.Text) == "" {
		return nil, model.Like{}, s.toolError(ctx, req, inputErr("error.like_empty", "text", nil))
	}
	r, err := s.cat.Like(ctx, lang, in.Text, likeResults)
	if err != nil {
		return nil, model.Like{}, s.toolError(ctx, req, err)
	}
	out := likeModel(ctx, lang, r)
	return textResult(mcptext.Like(ctx, out)), out, nil
}
