/* report_html.c - the shared parts of HTML pages (report_html.h): the
 * escaping, the style and the script every page carries inline. */
#include "report/report_html_int.h"

void report_html_text(FILE *out, const char *s)
{
  for (; s && *s; s++) {
    switch (*s) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    case '\'': fputs("&#39;", out); break;
    default: fputc(*s, out);
    }
  }
}

void report_html_si(char *buf, size_t n, double v)
{
  static const char *const pre[] = {"", " k", " M", " G", " T", " P"};
  int i = 0;
  while (v >= 999.5 && i < 5) {
    v /= 1000;
    i++;
  }
  if (i == 0) snprintf(buf, n, "%.0f", v);
  else snprintf(buf, n, "%.*f%s", v < 9.995 ? 2 : v < 99.95 ? 1 : 0, v, pre[i]);
}

void report_html_bytes(char *buf, size_t n, double bytes)
{
  char num[32];
  report_html_si(num, sizeof num, bytes);
  snprintf(buf, n, "%s%sB", num, bytes >= 999.5 ? "" : " ");
}

/* The style: plain system fonts (no web fonts), tables, the chart's boxes,
 * the bars; colours that print. */
static const char *const style =
  "<style>\n"
  "body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5em auto;max-width:1200px;"
  "color:#1d2330;padding:0 1em;box-sizing:border-box}\n"
  "h1{font-size:1.5em;margin:.2em 0 .6em}h2{font-size:1.25em;margin:1.6em 0 .3em;border-bottom:2px solid #76b900}\n"
  "h3{font-size:1.05em;margin:1.2em 0 .3em}.meta{color:#555;margin:.2em 0}\n"
  "table{border-collapse:collapse;margin:.4em 0}th,td{padding:2px 8px;text-align:left;vertical-align:top}\n"
  "th{background:#eef1f5;border-bottom:1px solid #bbb;white-space:nowrap}td.n,th.n{text-align:right}\n"
  "table.sortable th[data-key]{cursor:pointer}table.sortable th[data-key]:hover{background:#dfe6ee}\n"
  "th.asc::after{content:' \\25B2'}th.desc::after{content:' \\25BC'}\n"
  "code,pre,.code{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,monospace;font-size:12.5px}\n"
  ".code{white-space:pre}td.code{white-space:pre-wrap;min-width:20em}td.ln{color:#888;text-align:right}\n"
  "td.why{min-width:14em}table.source{width:100%}\n"
  "tr.mem td{background:#f7faf2}tr.worst td{background:#fde8e6}tr.worst td.ln{color:#b00020;font-weight:bold}\n"
  "tr.instr td{background:#fafafa;border-top:1px dotted #ddd}.why{color:#444}\n"
  ".mem-only tbody.plain{display:none}\n"
  ".error{border-left:4px solid #b00020;background:#fff4f4;padding:.4em .8em;margin:.5em 0}\n"
  ".error pre{white-space:pre-wrap;margin:.3em 0}\n"
  ".source-file,.scroll{overflow-x:auto}\n"
  ".pic{margin:.2em 0 .5em 2em}.pic:empty{display:none}\n"
  ".wm-pic{max-width:100%;height:auto}figure.lab-access{margin:.5em 0}\n"
  ".lab-pair{display:flex;gap:1em}.lab-pair>div{flex:1;min-width:0}.lab-pair h5{margin:.3em 0}\n"
  "svg text{font-family:system-ui,sans-serif}svg .mono{font-family:ui-monospace,monospace}\n"
  ".charts{display:flex;flex-wrap:wrap;gap:1em}\n"
  "details{margin:.5em 0}summary{cursor:pointer;color:#345}\n"
  "</style>\n";

/* The script: errors into data-error, sortable tables, the ready flag.
 * Kept in ES5 so any Chromium of the last decade runs it. */
static const char *const script =
  "<script>\n"
  "window.onerror=function(msg,src,line){document.body.dataset.error=String(msg)+' (line '+line+')';};\n"
  "function wmKey(el,k,type){var v=el.dataset[k];if(type==='num'){v=parseFloat(v);return isNaN(v)?-1:v;}"
  "return v===undefined?'':v;}\n"
  "function wmSort(th){\n"
  " var table=th.closest('table'),k=th.dataset.key,type=th.dataset.type||'num';\n"
  " var desc=!th.classList.contains('desc');\n"
  " table.querySelectorAll('th').forEach(function(h){h.classList.remove('asc','desc');});\n"
  " th.classList.add(desc?'desc':'asc');\n"
  " var grp=table.querySelectorAll('tbody.grp'),items,parent;\n"
  " if(grp.length){items=Array.prototype.slice.call(grp);parent=table;}\n"
  " else{parent=table.tBodies[0];items=Array.prototype.slice.call(parent.rows);}\n"
  " items.forEach(function(it,i){it.dataset.pos=it.dataset.pos||i;});\n"
  " items.sort(function(a,b){var x=wmKey(a,k,type),y=wmKey(b,k,type);\n"
  "  if(x<y)return desc?1:-1;if(x>y)return desc?-1:1;return a.dataset.pos-b.dataset.pos;});\n"
  " items.forEach(function(it){parent.appendChild(it);});\n"
  "}\n"
  "function wmInit(){\n"
  " document.querySelectorAll('table.sortable th[data-key]').forEach(function(th){\n"
  "  th.addEventListener('click',function(){wmSort(th);});});\n"
  " document.querySelectorAll('input.mem-only').forEach(function(cb){\n"
  "  var t=document.getElementById(cb.dataset.table);\n"
  "  cb.addEventListener('change',function(){t.classList.toggle('mem-only',cb.checked);});\n"
  "  t.classList.toggle('mem-only',cb.checked);});\n"
  " document.body.dataset.ready='1';\n"
  "}\n"
  "</script>\n";

void report_html_begin(FILE *out, const char *title)
{
  fputs("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n<title>", out);
  report_html_text(out, title);
  fputs("</title>\n", out);
  fputs(style, out);
  fputs(script, out);
  fputs("</head>\n<body>\n<h1>", out);
  report_html_text(out, title);
  fputs("</h1>\n", out);
}

void report_html_end(FILE *out)
{
  fputs("<script>wmInit();</script>\n</body>\n</html>\n", out);
}
