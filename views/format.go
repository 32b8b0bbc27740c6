package views

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"incidentlib/internal/catalog"
)

var enMonths = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// FormatDate writes a case date (YYYY-MM-DD, YYYY-MM or YYYY) the way each language writes
// dates: 2026년 8월 24일 / 24 Aug 2026.
func FormatDate(lang catalog.Lang, date string) string {
	parts := strings.Split(date, "-")
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return date
		}
		nums[i] = n
	}
	if lang == catalog.Korean {
		units := []string{"년", "월", "일"}
		var b []string
		for i, n := range nums {
			b = append(b, strconv.Itoa(n)+units[i])
		}
		return strings.Join(b, " ")
	}
	switch len(nums) {
	case 3:
		return fmt.Sprintf("%d %s %d", nums[2], enMonths[nums[1]-1], nums[0])
	case 2:
		return fmt.Sprintf("%s %d", enMonths[nums[1]-1], nums[0])
	}
	return strconv.Itoa(nums[0])
}

// koZones names in Korean the zones cases are dated in; another zone shows its abbreviation.
var koZones = map[string]string{
	"Asia/Seoul": "한국 시간", "Asia/Tokyo": "일본 시간", "Asia/Shanghai": "중국 시간",
	"America/Los_Angeles": "미국 태평양 시간", "America/New_York": "미국 동부 시간", "America/Toronto": "캐나다 동부 시간",
	"Europe/Copenhagen": "덴마크 시간", "Europe/Warsaw": "폴란드 시간",
}

// FormatCaseDate writes a case's date with the zone it is the local day of, when it has one:
// "2018년 2월 2일 (한국 시간)" / "2 Feb 2018 (KST)". A date in UTC is written alone.
func FormatCaseDate(lang catalog.Lang, date, zone string) string {
	d := FormatDate(lang, date)
	if zone == "" {
		return d
	}
	name := catalog.ZoneAbbrev(zone, date)
	if n, ok := koZones[zone]; ok && lang == catalog.Korean {
		name = n
	}
	return d + " (" + name + ")"
}

// FormatMinutes writes a duration in minutes: 6시간 13분 / 6h 13m; days for long ones.
func FormatMinutes(lang catalog.Lang, m *int) string {
	if m == nil {
		return "–"
	}
	d := time.Duration(*m) * time.Minute
	days, hours, mins := int(d.Hours())/24, int(d.Hours())%24, *m%60
	u := map[catalog.Lang][3]string{catalog.Korean: {"일", "시간", "분"}, catalog.English: {"d", "h", "m"}}[lang]
	if lang == catalog.Korean {
		u = [3]string{"일 ", "시간 ", "분"}
	}
	var b strings.Builder
	if days > 0 {
		fmt.Fprintf(&b, "%d%s", days, u[0])
		if lang == catalog.English {
			b.WriteByte(' ')
		}
	}
	if hours > 0 {
		fmt.Fprintf(&b, "%d%s", hours, u[1])
		if lang == catalog.English {
			b.WriteByte(' ')
		}
	}
	if mins > 0 || b.Len() == 0 {
		fmt.Fprintf(&b, "%d%s", mins, u[2])
	}
	return strings.TrimSpace(b.String())
}

// Or returns s, or the dash shown for an unknown fact.
func Or(s string) string {
	if strings.TrimSpace(s) == "" {
		return "–"
	}
	return s
}

// FormatBytes writes a size as people read it: 1.4 MB, 820 KB.
func FormatBytes(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
