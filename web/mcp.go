package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/catalog"
	"incidentlib/views"
)

// The MCP endpoint offers five read-only tools over the catalog. Each tool checks its arguments,
// asks the store once, and answers twice: readable text in the caller's language, and the same
// facts as structured content described by the tool's output schema.

// Bounds of the tools' arguments. A page of an answer is read by a model, so it is smaller than
// the API's.
const (
	mcpPageSize    = 10
	mcpMaxPageSize = 50
	mcpMaxSlugLen  = 100
	summaryStart   = 240 // characters of a summary shown in a list
)

// toolKinds are the kinds that have a topic: list_incidents, get_topic and vocab take them.
var toolKinds = []string{catalog.KindCause, catalog.KindSymptom, catalog.KindComponent, catalog.KindFactor, catalog.KindOrg}

// mcp serves the MCP endpoint over Streamable HTTP.
//
// The handler is stateless: every POST is a whole exchange, answered as plain JSON, so no session
// lives in memory, any replica behind a load balancer can answer, and nothing streams through the
// proxy. One mcp.Server answers every request; the SDK hands the request's context values on to
// the tools, which is how they learn the origin to link to.
func (s *Server) mcp() echo.HandlerFunc {
	srv := mcp.NewServer(&mcp.Implementation{Name: "incidentlib", Title: "Incident Library", Version: "1.0.0"},
		&mcp.ServerOptions{
			Instructions: mcpInstructions,
			// tools only: no logging to the client, and the list never changes
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		})
	srv.AddReceivingMiddleware(s.mcpTimeout)
	mcp.AddTool(srv, searchIncidentsTool, s.toolSearchIncidents)
	mcp.AddTool(srv, getIncidentTool, s.toolGetIncident)
	mcp.AddTool(srv, listIncidentsTool, s.toolListIncidents)
	mcp.AddTool(srv, getTopicTool, s.toolGetTopic)
	mcp.AddTool(srv, vocabTool, s.toolVocab)
	mcp.AddTool(srv, getChecklistTool, s.toolGetChecklist)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       s.log,
		// The SDK refuses requests that reach a loopback address with another Host, against DNS
		// rebinding. Behind a reverse proxy every request arrives on 127.0.0.1 with the public
		// Host, so the check would refuse them all; we turn it off. That is safe here because a
		// rebound page could learn nothing it cannot read on the public site: the tools are
		// read-only over public data, no cookie or credential is read, there is no session to
		// take over, and a browser can only send the JSON POST after a CORS preflight that
		// /mcp never grants. Requests are still rate-limited and body-limited like the API.
		DisableLocalhostProtection: true,
	})
	return func(c echo.Context) error {
		r := c.Request()
		ctx := views.WithLocale(r.Context(), &views.Locale{Origin: s.origin(r)})
		return serveJSONRPC(c, r.WithContext(ctx), h)
	}
}

// mcpTimeout bounds the work of one MCP request like any other request's; the echo timeout
// middleware leaves /mcp alone.
func (s *Server) mcpTimeout(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		ctx, cancel := contextWithTimeout(ctx, s.cfg.RequestTimeout)
		defer cancel()
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		// Tool calls render like pages do: in the same slots, in arrival order.
		err = s.inSlot(ctx, func() error {
			res, err = next(ctx, method, req)
			return err
		})
		return res, err
	}
}

const mcpInstructions = `Incident Library is a catalog of real public incident postmortems (outages, data loss, ` +
	`security failures), each written in Korean and English and classified by cause, symptom, component, ` +
	`contributing factor and organization. Start with search_incidents for a problem description, ` +
	`read a case with get_incident, and use vocab to turn words into the slugs the filters take.`

var readOnlyTool = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}

var searchIncidentsTool = &mcp.Tool{
	Name:  "search_incidents",
	Title: "Search incidents",
	Description: "Search the incident postmortems with a symptom, a sentence or a few words in Korean or English " +
		"(both languages are always searched), optionally narrowed by filters: slugs of causes, symptoms, " +
		"components, contributing factors, organizations or years. Values of one filter widen the search (any " +
		"of them), different filters narrow it (all of them). Returns the matching cases best match first (id, " +
		"title, organization, date, link, start of the summary) and suggested filters named by the words. " +
		"Use it first for a question or a problem description; use list_incidents when you already know one " +
		"vocabulary slug, and get_incident to read a case in full.",
	InputSchema: inputSchema[searchInput](),
	Annotations: readOnlyTool,
}

var getIncidentTool = &mcp.Tool{
	Name:  "get_incident",
	Title: "Read an incident",
	Description: "Read one incident case in full by its id, such as IL-0003: facts (organization, date, severity, " +
		"minutes to detect and to resolve), classification (causes, symptoms, components, contributing factors), " +
		"the account (summary, symptoms, root cause and trigger, detection, remediation, action items, lessons), " +
		"its public sources with links, and related cases with the reasons they are related. Use it once " +
		"search_incidents or list_incidents gave you an id. The account comes in English and Korean unless lang " +
		"names one.",
	InputSchema: inputSchema[incidentInput](),
	Annotations: readOnlyTool,
}

var listIncidentsTool = &mcp.Tool{
	Name:  "list_incidents",
	Title: "List incidents by category",
	Description: "List every case tagged with one vocabulary value (a cause, symptom, component, contributing factor " +
		"or organization), newest first, a page at a time. Use it when you already know the value's slug (from " +
		"vocab, get_topic or a case's tags); use search_incidents for free text or to combine several filters.",
	InputSchema: inputSchema[listInput](),
	Annotations: readOnlyTool,
}

var getTopicTool = &mcp.Tool{
	Name:  "get_topic",
	Title: "Describe a category",
	Description: "Describe one vocabulary value (a cause, symptom, component, contributing factor or organization): " +
		"its label, definition, number of cases, the values most often found in the same cases, and cases per " +
		"year. Use it to understand or compare categories; use list_incidents for its cases.",
	InputSchema: inputSchema[topicInput](),
	Annotations: readOnlyTool,
}

var vocabTool = &mcp.Tool{
	Name:  "vocab",
	Title: "Find vocabulary slugs",
	Description: "Turn words in Korean or English, such as \"재시도\", \"DNS\" or \"certificate expired\", into the " +
		"vocabulary values (causes, symptoms, components, contributing factors, organizations) they name, by " +
		"label, alias or the beginning of a word, each with its slug, definition and number of cases. With no " +
		"words, lists the whole vocabulary. Use it to find the slugs that search_incidents, list_incidents and " +
		"get_topic take.",
	InputSchema: inputSchema[vocabInput](),
	Annotations: readOnlyTool,
}

// Arguments of the tools. Descriptions come from the jsonschema tags, bounds from inputSchema.

type searchInput struct {
	Query     string   `json:"query,omitempty" jsonschema:"a symptom, a sentence or a few words in Korean or English, e.g. 'DNS 장애' or 'certificate expired'; empty lists the filtered cases newest first"`
	Cause     []string `json:"cause,omitempty" jsonschema:"cause slugs (see vocab)"`
	Symptom   []string `json:"symptom,omitempty" jsonschema:"symptom slugs (see vocab)"`
	Component []string `json:"component,omitempty" jsonschema:"component slugs (see vocab)"`
	Factor    []string `json:"factor,omitempty" jsonschema:"contributing factor slugs (see vocab)"`
	Org       []string `json:"org,omitempty" jsonschema:"organization slugs (see vocab), e.g. kakao"`
	Year      []string `json:"year,omitempty" jsonschema:"years of the incident, e.g. 2022"`
	Lang      string   `json:"lang,omitempty" jsonschema:"language of the answer: en or ko"`
	Page      int      `json:"page,omitempty" jsonschema:"page of the results, from 1"`
	PageSize  int      `json:"page_size,omitempty" jsonschema:"cases per page"`
}

type incidentInput struct {
	ID   string `json:"id" jsonschema:"case id such as IL-0003, in any case"`
	Lang string `json:"lang,omitempty" jsonschema:"language of the answer: en or ko; leave it out for both"`
}

type listInput struct {
	Kind     string `json:"kind" jsonschema:"the kind of value"`
	Slug     string `json:"slug" jsonschema:"the value's slug, e.g. power-facility (see vocab)"`
	Lang     string `json:"lang,omitempty" jsonschema:"language of the answer: en or ko"`
	Page     int    `json:"page,omitempty" jsonschema:"page of the results, from 1"`
	PageSize int    `json:"page_size,omitempty" jsonschema:"cases per page"`
}

type topicInput struct {
	Kind string `json:"kind" jsonschema:"the kind of value"`
	Slug string `json:"slug" jsonschema:"the value's slug, e.g. power-facility (see vocab)"`
	Lang string `json:"lang,omitempty" jsonschema:"language of the answer: en or ko"`
}

type vocabInput struct {
	Words string `json:"words,omitempty" jsonschema:"words in Korean or English naming a cause, symptom, component, factor or organization; empty lists everything"`
	Kind  string `json:"kind,omitempty" jsonschema:"only values of this kind"`
	Lang  string `json:"lang,omitempty" jsonschema:"language of labels and definitions: en or ko"`
}

// inputSchema infers the schema of a tool's arguments and adds the bounds a tag cannot say. The
// SDK checks them before a handler runs, so a handler sees only arguments within them.
func inputSchema[In any]() *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("input schema of %T: %v", *new(In), err)) // a programming error, found by every test
	}
	for name, p := range s.Properties {
		switch name {
		case "lang":
			p.Enum = []any{"en", "ko"}
		case "kind":
			p.Enum = []any{}
			for _, k := range toolKinds {
				p.Enum = append(p.Enum, k)
			}
		case "query", "words":
			p.MaxLength = new(catalog.MaxQueryLen)
		case "id", "slug":
			p.MaxLength = new(mcpMaxSlugLen)
		case "page":
			p.Minimum, p.Maximum, p.Default = new(1.0), new(float64(maxPage)), []byte("1")
		case "page_size":
			p.Minimum, p.Maximum, p.Default = new(1.0), new(float64(mcpMaxPageSize)), []byte(strconv.Itoa(mcpPageSize))
		case "cause", "symptom", "component", "factor", "org", "year":
			// a slice infers as ["null","array"]; clients such as the MCP Inspector then cannot
			// send a list, and an absent list already means no filter
			p.Type, p.Types = "array", nil
			p.MaxItems = new(maxValues)
			p.Items.MaxLength = new(mcpMaxSlugLen)
		}
	}
	return s
}

// Structured answers of the tools.

type incidentCard struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Org     apiTerm   `json:"org"`
	Date    string    `json:"date" jsonschema:"YYYY-MM-DD, YYYY-MM or YYYY (UTC)"`
	URL     string    `json:"url" jsonschema:"the case's page"`
	Summary string    `json:"summary" jsonschema:"the start of the summary"`
	Tags    []apiTerm `json:"tags" jsonschema:"causes, symptoms, components and contributing factors"`
}

type incidentList struct {
	Lang        string              `json:"lang"`
	Query       string              `json:"query,omitempty"`
	Filters     map[string][]string `json:"filters" jsonschema:"applied filter slugs by kind"`
	Sort        string              `json:"sort" jsonschema:"relevance, newest or oldest"`
	AnyWords    bool                `json:"any_words" jsonschema:"no case had every word, so the cases have at least one of them"`
	Total       int                 `json:"total" jsonschema:"cases in all pages"`
	Page        int                 `json:"page"`
	PageSize    int                 `json:"page_size"`
	Pages       int                 `json:"pages"`
	URL         string              `json:"url" jsonschema:"the same list on the site"`
	Cases       []incidentCard      `json:"cases"`
	Suggestions []apiTerm           `json:"suggestions" jsonschema:"vocabulary values the words name, not yet applied: filters that may narrow the search"`
}

type relatedIncident struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Org     apiTerm   `json:"org"`
	Date    string    `json:"date"`
	URL     string    `json:"url"`
	Score   float64   `json:"score"`
	Reasons []apiTerm `json:"reasons" jsonschema:"shared values; kind text means similar wording"`
	Why     string    `json:"why" jsonschema:"the reasons as a phrase"`
}

type incidentDetail struct {
	ID            string                  `json:"id"`
	URL           string                  `json:"url" jsonschema:"the case's page in the first language of the answer"`
	Org           apiTerm                 `json:"org"`
	Date          string                  `json:"date" jsonschema:"YYYY-MM-DD, YYYY-MM or YYYY (UTC)"`
	Severity      string                  `json:"severity,omitempty" jsonschema:"critical, major or minor; absent when the sources do not say"`
	TimeToDetect  *int                    `json:"time_to_detect,omitempty" jsonschema:"minutes; absent when unknown"`
	TimeToResolve *int                    `json:"time_to_resolve,omitempty" jsonschema:"minutes; absent when unknown"`
	Causes        []apiTerm               `json:"causes"`
	Symptoms      []apiTerm               `json:"symptoms"`
	Components    []apiTerm               `json:"components"`
	Factors       []apiTerm               `json:"factors"`
	Text          map[string]catalog.Text `json:"text" jsonschema:"the account by language (en, ko)"`
	Sources       []catalog.Source        `json:"sources"`
	Related       []relatedIncident       `json:"related" jsonschema:"most related first"`
}

type topicYear struct {
	Year  int `json:"year"`
	Count int `json:"count"`
}

type topicSummary struct {
	apiTerm
	Definition string                `json:"definition"`
	Count      int                   `json:"count" jsonschema:"cases with this value"`
	URL        string                `json:"url" jsonschema:"the value's page"`
	Related    map[string][]apiFacet `json:"related" jsonschema:"values found in the same cases, by kind, most frequent first"`
	Years      []topicYear           `json:"years" jsonschema:"cases per year, oldest first"`
}

type vocabValue struct {
	apiTerm
	Definition string   `json:"definition,omitempty"`
	Aliases    []string `json:"aliases,omitempty" jsonschema:"other names it is found by, in either language"`
	Count      int      `json:"count" jsonschema:"cases with this value"`
}

type vocabList struct {
	Lang   string       `json:"lang"`
	Words  string       `json:"words,omitempty"`
	Values []vocabValue `json:"values" jsonschema:"matching values (all values without words), by kind in vocabulary order"`
}

// toolSearchIncidents searches cases with the listing's filter parser and store query.
func (s *Server) toolSearchIncidents(ctx context.Context, req *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, incidentList, error) {
	lang := cmp.Or(in.Lang, "en")
	ctx = s.toolLocale(ctx, lang)
	q := url.Values{"q": {in.Query}, "page": {strconv.Itoa(cmp.Or(in.Page, 1))}}
	for kind, slugs := range map[string][]string{catalog.KindCause: in.Cause, catalog.KindSymptom: in.Symptom,
		catalog.KindComponent: in.Component, catalog.KindFactor: in.Factor, catalog.KindOrg: in.Org, catalog.KindYear: in.Year} {
		q[kind] = slugs
	}
	out, err := s.toolList(ctx, lang, q, in.PageSize)
	if err != nil {
		return nil, incidentList{}, s.toolError(ctx, req, err)
	}
	return textResult(listText(ctx, "", out)), out, nil
}

// toolListIncidents lists the cases of one value, newest first.
func (s *Server) toolListIncidents(ctx context.Context, req *mcp.CallToolRequest, in listInput) (*mcp.CallToolResult, incidentList, error) {
	lang := cmp.Or(in.Lang, "en")
	ctx = s.toolLocale(ctx, lang)
	q := url.Values{in.Kind: {in.Slug}, "page": {strconv.Itoa(cmp.Or(in.Page, 1))}, "sort": {catalog.SortNewest}}
	out, err := s.toolList(ctx, lang, q, in.PageSize)
	if err != nil {
		return nil, incidentList{}, s.toolError(ctx, req, err)
	}
	head := views.KindLabel(ctx, in.Kind) + ": " + s.cat.Term(lang, in.Kind, in.Slug).Label
	return textResult(listText(ctx, head, out)), out, nil
}

// toolList reads a listing query with the site's filter parser, so both check it the same way,
// and returns one page of it.
func (s *Server) toolList(ctx context.Context, lang string, q url.Values, size int) (incidentList, error) {
	f, err := s.parseFilter(q.Encode(), cmp.Or(size, mcpPageSize))
	if err != nil {
		return incidentList{}, err
	}
	r, err := s.cat.Cases(ctx, lang, f)
	if err != nil {
		return incidentList{}, err
	}
	if f.Page > r.Pages() {
		return incidentList{}, inputErr("error.bad_page", "page", map[string]any{"Value": f.Page, "Max": r.Pages()})
	}
	out := incidentList{Lang: lang, Query: r.Filter.Q, Filters: map[string][]string{}, Sort: r.Filter.Sort, AnyWords: r.AnyWords,
		Total: r.Total, Page: r.Filter.Page, PageSize: r.Filter.PageSize, Pages: r.Pages(),
		URL: views.AbsURL(ctx, views.ListURL(lang, r.Filter)), Cases: []incidentCard{}, Suggestions: terms(r.Suggestions)}
	for kind, slugs := range r.Filter.Values {
		if len(slugs) > 0 {
			out.Filters[kind] = slugs
		}
	}
	for _, c := range r.Cards {
		out.Cases = append(out.Cases, incidentCard{ID: c.ID, Title: c.Title, Org: term(c.Org), Date: c.Date,
			URL: views.AbsURL(ctx, views.CaseURL(lang, c.ID)), Summary: clipSummary(c.Summary, summaryStart), Tags: terms(c.Tags)})
	}
	return out, nil
}

// toolGetIncident returns one case, in both languages unless lang names one.
func (s *Server) toolGetIncident(ctx context.Context, req *mcp.CallToolRequest, in incidentInput) (*mcp.CallToolResult, incidentDetail, error) {
	langs := []string{"en", "ko"}
	if in.Lang != "" {
		langs = []string{in.Lang}
	}
	lang := langs[0]
	ctx = s.toolLocale(ctx, lang)
	id := strings.ToUpper(strings.TrimSpace(in.ID))
	out := incidentDetail{Text: map[string]catalog.Text{}}
	for _, l := range langs {
		cs, err := s.cat.Case(ctx, l, id)
		if errorsIsNotFound(err) {
			err = &notFound{id: "mcp.case_not_found", data: map[string]any{"ID": clipValue(in.ID)}, err: err}
		}
		if err != nil {
			return nil, incidentDetail{}, s.toolError(ctx, req, err)
		}
		out.Text[l] = cs.Text
		if l != lang {
			continue
		}
		out.ID, out.URL, out.Org, out.Date, out.Severity = cs.ID, views.AbsURL(ctx, views.CaseURL(lang, cs.ID)), term(cs.Org), cs.Date, cs.Severity
		out.TimeToDetect, out.TimeToResolve = cs.TimeToDetect, cs.TimeToResolve
		out.Causes, out.Symptoms, out.Components, out.Factors = terms(cs.Causes), terms(cs.Symptoms), terms(cs.Components), terms(cs.Factors)
		out.Sources = cs.Sources
		out.Related = []relatedIncident{}
		for _, r := range cs.Related {
			out.Related = append(out.Related, relatedIncident{ID: r.ID, Title: r.Title, Org: term(r.Org), Date: r.Date,
				URL: views.AbsURL(ctx, views.CaseURL(lang, r.ID)), Score: r.Score, Reasons: terms(r.Reasons), Why: views.Reasons(ctx, r.Reasons)})
		}
	}
	return textResult(s.incidentText(ctx, langs, out)), out, nil
}

// toolGetTopic describes one value of a kind.
func (s *Server) toolGetTopic(ctx context.Context, req *mcp.CallToolRequest, in topicInput) (*mcp.CallToolResult, topicSummary, error) {
	lang := cmp.Or(in.Lang, "en")
	ctx = s.toolLocale(ctx, lang)
	tp, err := s.cat.Topic(ctx, lang, in.Kind, in.Slug)
	if errorsIsNotFound(err) {
		err = &notFound{id: "mcp.bad_value", data: map[string]any{"Value": clipValue(in.Slug), "Kind": in.Kind}, err: err}
	}
	if err != nil {
		return nil, topicSummary{}, s.toolError(ctx, req, err)
	}
	out := topicSummary{apiTerm: term(tp.Term), Definition: tp.Definition, Count: tp.Count, URL: views.AbsURL(ctx, views.TopicURL(lang, tp.Term)),
		Related: map[string][]apiFacet{}, Years: []topicYear{}}
	for kind, fs := range tp.Related {
		out.Related[kind] = facets(fs)
	}
	for _, y := range tp.Years {
		out.Years = append(out.Years, topicYear{y.Year, y.Count})
	}
	return textResult(topicText(ctx, out)), out, nil
}

// toolVocab finds the values that words name (catalog.Store.MatchVocab).
func (s *Server) toolVocab(ctx context.Context, _ *mcp.CallToolRequest, in vocabInput) (*mcp.CallToolResult, vocabList, error) {
	lang := cmp.Or(in.Lang, "en")
	ctx = s.toolLocale(ctx, lang)
	words := cleanQuery(in.Words)
	kinds := toolKinds
	if in.Kind != "" {
		kinds = []string{in.Kind}
	}
	out := vocabList{Lang: lang, Words: words, Values: []vocabValue{}}
	for _, v := range s.cat.MatchVocab(lang, words, kinds) {
		out.Values = append(out.Values, vocabValue{apiTerm: term(v.Term), Definition: v.Definition, Aliases: v.Aliases, Count: v.Count})
	}
	return textResult(vocabText(ctx, out)), out, nil
}

// toolLocale sets the language of an answer in ctx for views.T, keeping the origin the request
// came through.
func (s *Server) toolLocale(ctx context.Context, lang string) context.Context {
	return views.WithLocale(ctx, &views.Locale{Lang: lang, Localizer: s.localizers[lang], Origin: views.LocaleOf(ctx).Origin})
}

// toolWording replaces site messages whose advice points at the page.
var toolWording = map[string]string{"error.bad_value": "mcp.bad_value"}

// toolError is what the caller reads when a tool fails, in the answer's language: what was wrong
// with the arguments, or that the fault is ours (logged, never detailed). classify decides.
func (s *Server) toolError(ctx context.Context, req *mcp.CallToolRequest, err error) error {
	p := classify(err)
	switch {
	case p.status == http.StatusServiceUnavailable:
		return errors.New(views.T(ctx, "mcp.timeout"))
	case p.status < 500:
		return errors.New(views.T(ctx, cmp.Or(toolWording[p.id], p.id), p.data))
	}
	s.log.Error("mcp tool failed", "tool", req.Params.Name, "err", err)
	return errors.New(views.T(ctx, "mcp.server"))
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// clipSummary cuts s to at most n characters at a space, marking the cut.
func clipSummary(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := string([]rune(s)[:n])
	if i := strings.LastIndex(cut, " "); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// Text answers: Markdown-ish plain text in the answer's language, written from the structured
// answer so both say the same.

// listText writes a page of cases under an optional heading.
func listText(ctx context.Context, head string, out incidentList) string {
	var b strings.Builder
	if head != "" {
		fmt.Fprintf(&b, "# %s\n\n", head)
	}
	from := (out.Page-1)*out.PageSize + 1
	if out.Total == 0 {
		fmt.Fprintf(&b, "%s. %s\n", views.T(ctx, "list.none"), views.T(ctx, "list.empty_hint"))
	} else {
		fmt.Fprintf(&b, "%s. %s %s\n", views.N(ctx, "list.range", out.Total, map[string]any{"From": from, "To": from + len(out.Cases) - 1}),
			listWhat(ctx, out), views.T(ctx, "list.order_"+out.Sort))
	}
	if len(out.Suggestions) > 0 {
		var sug []string
		for _, s := range out.Suggestions {
			sug = append(sug, fmt.Sprintf("%s (%s=%s)", s.Label, s.Kind, s.Slug))
		}
		fmt.Fprintf(&b, "%s: %s\n", views.T(ctx, "list.suggested"), strings.Join(sug, " · "))
	}
	for i, c := range out.Cases {
		fmt.Fprintf(&b, "\n%d. %s · %s · %s — %s\n   %s\n   %s\n", from+i, c.ID, c.Org.Label,
			views.FormatDate(out.Lang, c.Date), c.Title, c.Summary, c.URL)
	}
	if out.Page < out.Pages {
		fmt.Fprintf(&b, "\n%s\n", views.T(ctx, "mcp.next_page", map[string]any{"Next": out.Page + 1, "Pages": out.Pages}))
	}
	return b.String()
}

// listWhat says what the list holds, as the listing page does.
func listWhat(ctx context.Context, out incidentList) string {
	words := len(catalog.ParseQuery(out.Query)) > 0
	switch {
	case !words && len(out.Filters) == 0:
		return views.T(ctx, "list.what_all")
	case !words:
		return views.T(ctx, "list.what_filters")
	case out.AnyWords:
		return views.T(ctx, "list.what_search_any")
	case len(out.Filters) > 0:
		return views.T(ctx, "list.what_search_filters")
	}
	return views.T(ctx, "list.what_search")
}

// incidentText writes a case: facts and classification in the first language, the account in
// each of langs, then sources and related cases.
func (s *Server) incidentText(ctx context.Context, langs []string, out incidentDetail) string {
	lang := langs[0]
	var b strings.Builder
	fmt.Fprintf(&b, "# %s · %s · %s\n%s\n\n", out.ID, out.Org.Label, views.FormatDate(lang, out.Date), out.URL)
	fmt.Fprintf(&b, "## %s\n", views.T(ctx, "case.facts"))
	severity := "–"
	if out.Severity != "" {
		severity = views.T(ctx, "severity."+out.Severity)
	}
	fmt.Fprintf(&b, "- %s: %s\n", views.T(ctx, "case.severity"), severity)
	fmt.Fprintf(&b, "- %s: %s\n", views.T(ctx, "case.time_to_detect"), views.FormatMinutes(lang, out.TimeToDetect))
	fmt.Fprintf(&b, "- %s: %s\n", views.T(ctx, "case.time_to_resolve"), views.FormatMinutes(lang, out.TimeToResolve))
	for _, k := range []struct {
		kind string
		ts   []apiTerm
	}{{catalog.KindCause, out.Causes}, {catalog.KindSymptom, out.Symptoms}, {catalog.KindComponent, out.Components}, {catalog.KindFactor, out.Factors}} {
		var vs []string
		for _, tm := range k.ts {
			vs = append(vs, tm.Label+" ("+tm.Slug+")")
		}
		fmt.Fprintf(&b, "- %s: %s\n", views.KindPlural(ctx, k.kind), views.Or(strings.Join(vs, ", ")))
	}
	for _, l := range langs {
		lctx, tx := s.toolLocale(ctx, l), out.Text[l]
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", tx.Title, tx.Summary)
		for _, f := range []struct{ id, text string }{{"case.region", tx.Region}, {"case.scope", tx.Scope}, {"case.users_affected", tx.UsersAffected}} {
			if f.text != "" {
				fmt.Fprintf(&b, "- %s: %s\n", views.T(lctx, f.id), f.text)
			}
		}
		for _, sec := range []struct {
			id    string
			text  string
			items []string
		}{{"case.symptoms", tx.Symptoms, nil}, {"case.root_cause", tx.Trigger, nil}, {"case.detection", tx.Detection, nil},
			{"case.remediation", "", tx.Remediation}, {"case.action_items", "", tx.ActionItems}, {"case.lessons", tx.Lessons, nil}} {
			if sec.text == "" && len(sec.items) == 0 {
				continue
			}
			fmt.Fprintf(&b, "\n### %s\n", views.T(lctx, sec.id))
			if sec.text != "" {
				fmt.Fprintf(&b, "%s\n", sec.text)
			}
			for _, it := range sec.items {
				fmt.Fprintf(&b, "- %s\n", it)
			}
		}
	}
	fmt.Fprintf(&b, "\n## %s\n", views.T(ctx, "case.sources"))
	for _, src := range out.Sources {
		if src.Title != "" {
			fmt.Fprintf(&b, "- %s (%s): %s", src.Title, views.T(ctx, "source."+src.Kind), src.URL)
		} else {
			fmt.Fprintf(&b, "- %s (%s)", src.URL, views.T(ctx, "source."+src.Kind))
		}
		if src.Archive != "" {
			fmt.Fprintf(&b, " · %s: %s", views.T(ctx, "case.archive"), src.Archive)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n## %s\n", views.T(ctx, "case.related"))
	if len(out.Related) == 0 {
		fmt.Fprintf(&b, "%s\n", views.T(ctx, "case.no_related"))
	}
	for _, r := range out.Related {
		fmt.Fprintf(&b, "- %s · %s · %s — %s (%s)\n", r.ID, r.Org.Label, views.FormatDate(lang, r.Date), r.Title, r.Why)
	}
	return b.String()
}

// topicText writes a value: definition, count, values found with it and cases per year.
func topicText(ctx context.Context, out topicSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s (%s)\n%s\n\n", views.KindLabel(ctx, out.Kind), out.Label, out.Slug, out.URL)
	if out.Definition != "" {
		fmt.Fprintf(&b, "%s\n", out.Definition)
	}
	fmt.Fprintf(&b, "%s\n", views.N(ctx, "topic.count", out.Count))
	fmt.Fprintf(&b, "\n## %s\n", views.T(ctx, "topic.cooccur"))
	for _, kind := range toolKinds {
		fs := out.Related[kind]
		if len(fs) == 0 {
			continue
		}
		var vs []string
		for _, f := range fs[:min(len(fs), 8)] {
			vs = append(vs, fmt.Sprintf("%s (%s) %d", f.Label, f.Slug, f.Count))
		}
		fmt.Fprintf(&b, "- %s: %s\n", views.KindPlural(ctx, kind), strings.Join(vs, ", "))
	}
	fmt.Fprintf(&b, "\n## %s\n", views.T(ctx, "topic.per_year"))
	var ys []string
	for _, y := range out.Years {
		ys = append(ys, fmt.Sprintf("%d: %d", y.Year, y.Count))
	}
	fmt.Fprintf(&b, "%s\n", views.Or(strings.Join(ys, " · ")))
	return b.String()
}

// vocabText writes values grouped by kind: slug, label, number of cases and definition.
func vocabText(ctx context.Context, out vocabList) string {
	if len(out.Values) == 0 {
		return views.T(ctx, "mcp.no_values", map[string]any{"Q": clipValue(out.Words)}) + "\n"
	}
	var b strings.Builder
	kind := ""
	for _, v := range out.Values {
		if v.Kind != kind {
			kind = v.Kind
			fmt.Fprintf(&b, "\n## %s (%s)\n", views.KindPlural(ctx, kind), kind)
		}
		fmt.Fprintf(&b, "- %s: %s, %s", v.Slug, v.Label, views.N(ctx, "mcp.case_count", v.Count))
		if v.Definition != "" {
			fmt.Fprintf(&b, ". %s", v.Definition)
		}
		b.WriteString("\n")
	}
	return strings.TrimPrefix(b.String(), "\n")
}
