package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/catalog"
	"incidentlib/internal/model"
	"incidentlib/views"
	"incidentlib/views/mcptext"
)

// The MCP endpoint offers six read-only tools over the catalog. Each tool checks its arguments,
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
var toolKinds = catalog.TopicKinds

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
	mcp.AddTool(srv, findSimilarTool, s.toolFindSimilar)
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
		// The SDK calls this in a goroutine of its own, where echo's Recover cannot see a panic:
		// one bad request would end the process. A panic is the request's error instead.
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("mcp panic", "method", method, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error"}
			}
		}()
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
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
			rewordSchemaError(r)
		}
		return res, err
	}
}

const mcpInstructions = `Incident Library is a catalog of real public incident postmortems (outages, data loss, ` +
	`security failures), each written in Korean and English and classified by cause, symptom, component, ` +
	`contributing factor and organization. Start with search_incidents for a problem description, ` +
	`read a case with get_incident, and use vocab to turn words into the slugs the filters take. ` +
	`Answers are in English unless lang is ko; get_incident without lang gives the account in both languages.`

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
	InputSchema:  inputSchema[incidentInput](),
	OutputSchema: caseSchema(),
	Annotations:  readOnlyTool,
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
	Query    string       `json:"query,omitempty" jsonschema:"a symptom, a sentence or a few words in Korean or English, e.g. 'DNS 장애' or 'certificate expired'; empty lists the filtered cases newest first"`
	Lang     catalog.Lang `json:"lang,omitempty" jsonschema:"language of the answer: en or ko"`
	Page     int          `json:"page,omitempty" jsonschema:"page of the results, from 1"`
	PageSize int          `json:"page_size,omitempty" jsonschema:"cases per page"`
	// Filters are the arguments named after the kinds of catalog.FilterKinds ("cause": [...]):
	// inputSchema declares them and UnmarshalJSON reads them.
	Filters map[catalog.Kind][]string `json:"-"`
}

type incidentInput struct {
	ID   string       `json:"id" jsonschema:"case id such as IL-0003, in any case"`
	Lang catalog.Lang `json:"lang,omitempty" jsonschema:"language of the answer: en or ko; leave it out for both"`
}

type listInput struct {
	Kind     catalog.Kind `json:"kind" jsonschema:"the kind of value"`
	Slug     string       `json:"slug" jsonschema:"the value's slug, e.g. power-facility (see vocab)"`
	Lang     catalog.Lang `json:"lang,omitempty" jsonschema:"language of the answer: en or ko"`
	Page     int          `json:"page,omitempty" jsonschema:"page of the results, from 1"`
	PageSize int          `json:"page_size,omitempty" jsonschema:"cases per page"`
}

type topicInput struct {
	Kind catalog.Kind `json:"kind" jsonschema:"the kind of value"`
	Slug string       `json:"slug" jsonschema:"the value's slug, e.g. power-facility (see vocab)"`
	Lang catalog.Lang `json:"lang,omitempty" jsonschema:"language of the answer: en or ko"`
}

type vocabInput struct {
	Words string       `json:"words,omitempty" jsonschema:"words in Korean or English naming a cause, symptom, component, factor or organization; empty lists everything"`
	Kind  catalog.Kind `json:"kind,omitempty" jsonschema:"only values of this kind"`
	Lang  catalog.Lang `json:"lang,omitempty" jsonschema:"language of labels and definitions: en or ko"`
}

// The tools. Each reads its arguments into a catalog.Filter or an id, asks the store, builds the
// JSON model (web/model.go) and writes its text with views/mcptext. Answers are in English unless
// lang is ko; a case asked for without lang carries its account in both languages.

// toolSearchIncidents searches cases with the listing's checks and store query.
func (s *Server) toolSearchIncidents(ctx context.Context, req *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, model.ToolList, error) {
	lang := cmp.Or(in.Lang, defaultAPILang)
	ctx = s.toolLocale(ctx, lang)
	f := catalog.Filter{Q: cleanQuery(in.Query), Page: cmp.Or(in.Page, 1), PageSize: cmp.Or(in.PageSize, mcpPageSize),
		Values: in.Filters}
	out, err := s.toolList(ctx, lang, f)
	if err != nil {
		return nil, model.ToolList{}, s.toolError(ctx, req, err)
	}
	return textResult(mcptext.List(ctx, "", out)), out, nil
}

// toolListIncidents lists the cases of one value, newest first.
func (s *Server) toolListIncidents(ctx context.Context, req *mcp.CallToolRequest, in listInput) (*mcp.CallToolResult, model.ToolList, error) {
	lang := cmp.Or(in.Lang, defaultAPILang)
	ctx = s.toolLocale(ctx, lang)
	f := catalog.Filter{Values: map[catalog.Kind][]string{in.Kind: {in.Slug}}, Sort: catalog.SortNewest,
		Page: cmp.Or(in.Page, 1), PageSize: cmp.Or(in.PageSize, mcpPageSize)}
	out, err := s.toolList(ctx, lang, f)
	if err != nil {
		return nil, model.ToolList{}, s.toolError(ctx, req, err)
	}
	head := views.KindLabel(ctx, in.Kind) + ": " + s.cat.Term(lang, in.Kind, in.Slug).Label
	return textResult(mcptext.List(ctx, head, out)), out, nil
}

// toolList checks a filter built from typed arguments as the site checks one read from a URL,
// and returns one page of it.
func (s *Server) toolList(ctx context.Context, lang catalog.Lang, f catalog.Filter) (model.ToolList, error) {
	f, err := s.checkFilter(f)
	if err != nil {
		return model.ToolList{}, err
	}
	r, err := s.listPage(ctx, lang, f)
	if err != nil {
		return model.ToolList{}, err
	}
	out := model.ToolList{Lang: lang, Query: r.Filter.Q, Filters: map[catalog.Kind][]string{}, Sort: r.Filter.Sort, AnyWords: r.AnyWords, AllWords: allWords(r),
		Total: r.Total, Page: r.Filter.Page, PageSize: r.Filter.PageSize, Pages: r.Pages(),
		URL: views.AbsURL(ctx, views.ListURL(lang, r.Filter)), Cases: cardsOf(ctx, lang, r.Cards, summaryStart), Suggestions: facetTerms(r.Suggestions)}
	for kind, slugs := range r.Filter.Values {
		if len(slugs) > 0 {
			out.Filters[kind] = slugs
		}
	}
	return out, nil
}

// toolGetIncident returns one case, in both languages unless lang names one.
func (s *Server) toolGetIncident(ctx context.Context, req *mcp.CallToolRequest, in incidentInput) (*mcp.CallToolResult, model.Case, error) {
	langs := caseLangs(in.Lang)
	ctx = s.toolLocale(ctx, langs[0])
	out, err := s.caseOf(ctx, langs, strings.ToUpper(strings.TrimSpace(in.ID)))
	var nf *notFound
	if errors.As(err, &nf) {
		err = &notFound{id: "mcp.case_not_found", data: map[string]any{"ID": clipValue(in.ID)}, err: err}
	}
	if err != nil {
		return nil, model.Case{}, s.toolError(ctx, req, err)
	}
	text := mcptext.Case(ctx, langs, out, func(l catalog.Lang) context.Context { return s.toolLocale(ctx, l) })
	return textResult(text), out, nil
}

// toolGetTopic describes one value of a kind.
func (s *Server) toolGetTopic(ctx context.Context, req *mcp.CallToolRequest, in topicInput) (*mcp.CallToolResult, model.Topic, error) {
	lang := cmp.Or(in.Lang, defaultAPILang)
	ctx = s.toolLocale(ctx, lang)
	tp, err := s.cat.Topic(ctx, lang, in.Kind, in.Slug)
	if errorsIsNotFound(err) {
		err = &notFound{id: "mcp.bad_value", data: map[string]any{"Value": clipValue(in.Slug), "Kind": in.Kind}, err: err}
	}
	if err != nil {
		return nil, model.Topic{}, s.toolError(ctx, req, err)
	}
	out := model.Topic{Term: term(tp.Term), Definition: tp.Definition, Count: tp.Count, URL: views.AbsURL(ctx, views.TopicURL(lang, tp.Term)),
		Related: map[catalog.Kind][]model.Facet{}, Years: []model.Year{}}
	for kind, fs := range tp.Related {
		out.Related[kind] = facets(fs)
	}
	for _, y := range tp.Years {
		out.Years = append(out.Years, model.Year{Year: y.Year, Count: y.Count, Before: y.Before})
	}
	return textResult(mcptext.Topic(ctx, toolKinds, out)), out, nil
}

// toolVocab finds the values that words name (catalog.Store.MatchVocab).
func (s *Server) toolVocab(ctx context.Context, _ *mcp.CallToolRequest, in vocabInput) (*mcp.CallToolResult, model.VocabList, error) {
	lang := cmp.Or(in.Lang, defaultAPILang)
	ctx = s.toolLocale(ctx, lang)
	words := cleanQuery(in.Words)
	kinds := toolKinds
	if in.Kind != "" {
		kinds = []catalog.Kind{in.Kind}
	}
	out := model.VocabList{Lang: lang, Words: clipValue(words), Values: []model.VocabValue{}}
	for _, v := range s.cat.MatchVocab(lang, words, kinds) {
		out.Values = append(out.Values, vocabValueOf(v))
	}
	return textResult(mcptext.Vocab(ctx, out)), out, nil
}

// toolLocale sets the language of an answer in ctx for views.T, keeping the origin the request
// came through.
func (s *Server) toolLocale(ctx context.Context, lang catalog.Lang) context.Context {
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
