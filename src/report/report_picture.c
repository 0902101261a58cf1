/* report_picture.c - pictures of one warp's access (report_picture.h), as
 * the seeds draw them.
 *
 * Notes:
 * - The access drawn is the one the line's `why` explains (LineStat.pic,
 *   kept by mem.c with it): its active lanes' addresses, width and space.
 * - Global, local, const and param: the 32 lanes on top, the 32-byte
 *   sectors they touch below, in their 128-byte lines, a line from each
 *   active lane to the sector of its first byte.  When the touched lines
 *   fit (at most 8), whole lines are drawn, their untouched sectors pale;
 *   otherwise only the touched sectors, so 32 sectors 8 KiB apart still fit.
 *   A gap between sectors that are not neighbours is marked with its size.
 *   Local addresses are interleaved as the hardware does (mem_local_address;
 *   a wider access is a request per 4-byte word, and mem.c keeps the
 *   costliest word's), so sectors are those the model counts.
 * - Shared: the lanes on top, the banks below (32 of the generation's bank
 *   width; 16 on 1.x), each lane joined to the bank of its first byte and
 *   numbered with the wavefront (or pass) that serves it, as the model
 *   assigns them (mem_smem_lane_map: the same groups and broadcast rules).
 * - Every number shown is also an attribute: lanes are the only elements
 *   with data-lane (data-sector or data-bank and data-wavefront, 1-based,
 *   beside it; inactive lanes have data-active="0" and nothing else), the
 *   <svg> carries data-space, data-op, data-lanes (active) and
 *   data-sectors (distinct, as mem_sectors counts) or data-wavefronts
 *   (the total, as the model counts).
 * - Texture fetches and surface accesses: the lanes on top, the 32-byte
 *   sectors of the texels each lane's filter reads below (1 texel a lane
 *   for point sampling, 4 bilinear, 8 trilinear; in the object's tiled
 *   storage), a line from each lane to each of its sectors.  The <svg>
 *   carries data-texels and data-sectors (distinct, as --lines counts
 *   them) and data-sectors-drawn (the first MEM_PIC_TEX_SECTORS kept);
 *   a lane carries data-sector (its first) and data-lane-sectors.
 * - Small on purpose: presentation attributes on groups, children inherit.
 */
#include <inttypes.h>
#include <string.h>

#include "ptx/ptx.h"
#include "report/report_html.h"
#include "report/report_picture.h"

enum {
  PITCH = 24,     /* lane pitch */
  LEFT = 8,       /* left margin */
  WIDTH = LEFT * 2 + 32 * PITCH,
  LANE_Y = 18,    /* top of the lane boxes */
  LANE_H = 16,
  ROW_Y = 118,    /* top of the sector or bank boxes */
  ROW_H = 20,
  HEIGHT = 168,
  GAP = 8,        /* the width of a gap mark between sectors */
  MAXBOX = 64     /* a lane touches at most 2 sectors */
};

static const char *const op_names[] = {"ld", "st", "atom", "red", "ldmatrix", "stmatrix", "cp.async", "wgmma"};

static const char *op_name(unsigned op) {
  return op < sizeof op_names / sizeof *op_names ? op_names[op] : "?";
}

static int lane_x(unsigned l) {
  return LEFT + (int)l * PITCH + PITCH / 2;
}

/* "+4", "+1K", "+8K", "+2M": an offset small enough for a lane's label. */
static void short_offset(char *b, size_t n, uint64_t off) {
  if (off >= (1u << 20) && off % (1u << 20) == 0) snprintf(b, n, "+%" PRIu64 "M", off >> 20);
  else if (off >= 1024 && off % 1024 == 0) snprintf(b, n, "+%" PRIu64 "K", off >> 10);
  else snprintf(b, n, "+%" PRIu64, off);
}

static void svg_begin(FILE *out, const MemPicture *p, const char *count_attr, unsigned count) {
  const char *space = ptx_space_name((PtxSpace)p->space);
  fprintf(out,
          "<svg class=\"wm-pic\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\" role=\"img\" data-space=\"",
          WIDTH, HEIGHT, WIDTH, HEIGHT);
  report_html_text(out, space);
  fprintf(out, "\" data-op=\"%s\" data-size=\"%u\" data-warp=\"%u\" data-lanes=\"%u\" %s=\"%u\" "
               "font-family=\"sans-serif\" font-size=\"9\">\n",
          op_name(p->op), p->size, p->warp, (unsigned)__builtin_popcount(p->mask), count_attr, count);
  fprintf(out, "<title>warp %u: %u lanes, %s.%s of %u bytes each: %u %s</title>\n", p->warp, (unsigned)__builtin_popcount(p->mask),
          op_name(p->op), space, p->size, count, !strcmp(count_attr, "data-sectors") ? "sectors" : "wavefronts");
}

/* How one lane is drawn: its data attributes, colour, one or two labels
 * under it (offset; shared: wavefront, then offset) and where its line
 * ends (-1: no line). */
typedef struct LaneDraw {
  char attrs[64], fill[24], label[24], label2[24];
  int tx;
} LaneDraw;

/* The lanes: their lines first (one path, under the boxes), then the boxes
 * -- the only elements with data-lane; inactive lanes grey, with
 * data-active="0" -- their numbers and their labels. */
static void draw_lanes(FILE *out, uint32_t mask, const LaneDraw *d) {
  fputs("<path fill=\"none\" stroke=\"#2f5597\" d=\"", out);
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    if (d[l].tx >= 0) fprintf(out, "M%d %dL%d %d", lane_x(l), LANE_Y + LANE_H, d[l].tx, ROW_Y);
  }
  fprintf(out, "\"/>\n<g stroke=\"#555\" fill=\"#ddd\">");
  for (unsigned l = 0; l < 32; l++) {
    int on = mask >> l & 1;
    fprintf(out, "<rect data-lane=\"%u\" %s x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"", l,
            on ? d[l].attrs : "data-active=\"0\"", lane_x(l) - PITCH / 2 + 1, LANE_Y, PITCH - 2, LANE_H);
    if (on) fprintf(out, " fill=\"%s\"", d[l].fill);
    fputs("/>\n", out);
  }
  fputs("</g>\n<g text-anchor=\"middle\">", out);
  for (unsigned l = 0; l < 32; l++) fprintf(out, "<text x=\"%d\" y=\"%d\">%u</text>", lane_x(l), LANE_Y + 12, l);
  fputs("</g>\n<g text-anchor=\"middle\" fill=\"#444\" font-size=\"7\">", out);
  for (int row = 0; row < 2; row++)
    for (uint32_t m = mask; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctz(m);
      const char *t = row ? d[l].label2 : d[l].label;
      if (!t[0]) continue;
      fprintf(out, "<text x=\"%d\" y=\"%d\">", lane_x(l), LANE_Y + LANE_H + 9 + 9 * row);
      report_html_text(out, t);
      fputs("</text>", out);
    }
  fputs("</g>\n", out);
}

/* ---- global, local, const, param: lanes -> sectors ------------------------ */

/* A picture's boxes: the sectors drawn, left to right. */
typedef struct SectorRow {
  uint64_t sec[MAXBOX]; /* absolute sector numbers, ascending */
  uint8_t touched[MAXBOX]; /* a lane touches it (else: the rest of its line) */
  int x[MAXBOX];        /* left edge of each box */
  unsigned n;
  int w;                /* box width */
} SectorRow;

static int sector_index(const SectorRow *row, uint64_t s) {
  for (unsigned i = 0; i < row->n; i++)
    if (row->sec[i] == s) return (int)i;
  return 0;
}

static void add_sector(SectorRow *row, uint64_t s) {
  for (unsigned i = 0; i < row->n; i++)
    if (row->sec[i] == s) return;
  if (row->n < MAXBOX) row->sec[row->n++] = s;
}

/* The places of a row's sectors: whole 128-byte lines added when at most 8
 * are touched, sorted, a gap mark between sectors that are not neighbours. */
static void layout_row(SectorRow *row) {
  uint64_t lines[MAXBOX];
  unsigned nl = 0;
  for (unsigned i = 0; i < row->n; i++) {
    unsigned k = 0;
    while (k < nl && lines[k] != row->sec[i] >> 2) k++;
    if (k == nl) lines[nl++] = row->sec[i] >> 2;
  }
  if (nl <= 8)
    for (unsigned k = 0; k < nl; k++)
      for (unsigned j = 0; j < 4; j++) add_sector(row, lines[k] * 4 + j);
  mem_sort64(row->sec, row->n);
  unsigned gaps = 0;
  for (unsigned i = 1; i < row->n; i++) gaps += row->sec[i] != row->sec[i - 1] + 1;
  row->w = (32 * PITCH - (int)gaps * GAP) / (int)(row->n ? row->n : 1);
  if (row->w > 4 * PITCH) row->w = 4 * PITCH;
  for (unsigned i = 0, x = LEFT; i < row->n; i++) {
    if (i && row->sec[i] != row->sec[i - 1] + 1) x += GAP;
    row->x[i] = (int)x;
    x += (unsigned)row->w;
  }
}

/* The sectors to draw for the lanes' addresses `a`, each `size` bytes: whole
 * 128-byte lines when at most 8 are touched, else the touched sectors
 * only; then their places. */
static void sector_row(SectorRow *row, const uint64_t *a, uint32_t mask, unsigned size) {
  memset(row, 0, sizeof *row);
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    for (uint64_t s = a[l] >> 5; s <= (a[l] + (size ? size : 1) - 1) >> 5; s++) add_sector(row, s);
  }
  layout_row(row);
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    for (uint64_t s = a[l] >> 5; s <= (a[l] + (size ? size : 1) - 1) >> 5; s++)
      row->touched[sector_index(row, s)] = 1;
  }
}

/* The sector boxes (numbered from the first line drawn, where they are
 * wide enough), gap marks between sectors that are not neighbours, and an
 * outline around each run of a 128-byte line's sectors. */
static void sector_boxes(FILE *out, const SectorRow *row) {
  uint64_t first = row->n ? row->sec[0] & ~(uint64_t)3 : 0;
  fputs("<g stroke=\"#555\" fill=\"#f4b183\">", out); /* touched; the others pale, data-touched="0" */
  for (unsigned i = 0; i < row->n; i++)
    fprintf(out, "<rect class=\"sector\" data-sector=\"%" PRIu64 "\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"%s/>\n",
            row->sec[i], row->x[i], ROW_Y, row->w, ROW_H, row->touched[i] ? "" : " data-touched=\"0\" fill=\"#f3f3f3\"");
  for (unsigned i = 0, j; i < row->n; i = j) {
    for (j = i + 1; j < row->n && row->sec[j] == row->sec[j - 1] + 1 && row->sec[j] >> 2 == row->sec[i] >> 2; j++) {
    }
    if (j - i > 1)
      fprintf(out, "<rect class=\"line\" data-line=\"%" PRIu64 "\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                   "fill=\"none\" stroke-width=\"2\"/>\n",
              row->sec[i] >> 2, row->x[i], ROW_Y - 2, row->x[j - 1] + row->w - row->x[i], ROW_H + 4);
  }
  fputs("</g>\n<g text-anchor=\"middle\" font-size=\"7\">", out);
  for (unsigned i = 0; i < row->n; i++) {
    if (row->w >= 16)
      fprintf(out, "<text x=\"%d\" y=\"%d\">s%" PRIu64 "</text>", row->x[i] + row->w / 2, ROW_Y + ROW_H + 10,
              row->sec[i] - first);
    if (i && row->sec[i] != row->sec[i - 1] + 1)
      fprintf(out, "<text x=\"%d\" y=\"%d\">&#8230;</text>", row->x[i] - GAP / 2, ROW_Y + ROW_H / 2 + 3);
  }
  fprintf(out, "<text x=\"%d\" y=\"%d\">32-byte sectors (outlined: a 128-byte line; &#8230;: a gap)</text></g>\n",
          WIDTH / 2, HEIGHT - 6);
}

static void sector_picture(FILE *out, const MemPicture *p) {
  uint64_t a[32];
  unsigned size = p->size ? p->size : 1;
  int local = p->space == PTX_S_LOCAL;
  if (local && size > 4) size = 4; /* one request per 4-byte word (mem.c keeps the costliest) */
  uint64_t lo = UINT64_MAX;
  for (unsigned l = 0; l < 32; l++) {
    a[l] = local ? mem_local_address(p->addr[l], l) : p->addr[l];
    if ((p->mask >> l & 1) && p->addr[l] < lo) lo = p->addr[l];
  }
  SectorRow rows, *row = &rows;
  sector_row(row, a, p->mask, size);
  svg_begin(out, p, "data-sectors", mem_sectors(a, p->mask, size));
  sector_boxes(out, row);
  LaneDraw d[32];
  for (uint32_t m = p->mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    uint64_t s = a[l] >> 5;
    snprintf(d[l].attrs, sizeof d[l].attrs, "data-sector=\"%" PRIu64 "\"", s);
    snprintf(d[l].fill, sizeof d[l].fill, "#bdd7ee");
    short_offset(d[l].label, sizeof d[l].label, p->addr[l] - lo);
    d[l].label2[0] = '\0';
    int i = sector_index(row, s);
    d[l].tx = row->x[i] + row->w / 2;
  }
  draw_lanes(out, p->mask, d);
  fputs("</svg>\n", out);
}

/* ---- shared: lanes -> banks, wavefronts numbered ---------------------------- */

/* A colour per wavefront, so lanes served together look alike. */
static void wave_colour(char *b, size_t n, unsigned w) {
  snprintf(b, n, "hsl(%u,70%%,75%%)", (w * 47) % 360);
}

static void bank_picture(FILE *out, const MemModel *mm, const MemPicture *p) {
  uint8_t bank[32];
  uint16_t wave[32];
  unsigned nbanks = mm->gen.banks == MEM_BANKS_CC1 ? 16 : 32;
  unsigned bw = mm->gen.banks == MEM_BANKS_KEPLER ? mm->gen.bank_bytes : 4;
  unsigned total = mem_smem_lane_map(&mm->gen, p->addr, p->mask, p->size, p->op, bank, wave);
  int w = 32 * PITCH / (int)nbanks;
  uint64_t lo = UINT64_MAX;
  for (uint32_t m = p->mask; m; m &= m - 1)
    if (p->addr[__builtin_ctz(m)] < lo) lo = p->addr[__builtin_ctz(m)];
  svg_begin(out, p, "data-wavefronts", total);
  fputs("<g stroke=\"#555\" fill=\"#f3f3f3\">", out);
  for (unsigned b = 0; b < nbanks; b++) {
    unsigned lanes = 0;
    for (uint32_t m = p->mask; m; m &= m - 1) lanes += bank[__builtin_ctz(m)] == b;
    fprintf(out, "<rect class=\"bank\" data-bank=\"%u\" data-bank-lanes=\"%u\" x=\"%d\" y=\"%d\" width=\"%d\" "
                 "height=\"%d\"%s/>\n",
            b, lanes, LEFT + (int)b * w + 1, ROW_Y, w - 2, ROW_H, lanes ? " fill=\"#f4b183\"" : "");
  }
  fputs("</g>\n<g text-anchor=\"middle\" font-size=\"8\">", out);
  for (unsigned b = 0; b < nbanks; b++)
    fprintf(out, "<text x=\"%d\" y=\"%d\">b%u</text>", LEFT + (int)b * w + w / 2, ROW_Y + ROW_H + 10, b);
  fprintf(out, "<text x=\"%d\" y=\"%d\">banks of %u bytes</text></g>\n", WIDTH / 2, HEIGHT - 6, bw);
  LaneDraw d[32];
  for (uint32_t m = p->mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    char off[24];
    snprintf(d[l].attrs, sizeof d[l].attrs, "data-bank=\"%u\" data-wavefront=\"%u\"", bank[l], wave[l] + 1u);
    short_offset(off, sizeof off, p->addr[l] - lo);
    snprintf(d[l].label, sizeof d[l].label, "w%u", wave[l] + 1u);
    snprintf(d[l].label2, sizeof d[l].label2, "%s", off);
    wave_colour(d[l].fill, sizeof d[l].fill, wave[l]);
    d[l].tx = LEFT + (int)bank[l] * w + w / 2;
  }
  draw_lanes(out, p->mask, d);
  fputs("</svg>\n", out);
}

/* ---- texture and surface: lanes -> the sectors of their texels ------------- */

static const char *const tex_op_names[] = {"tex", "suld", "sust"};

static void tex_svg_begin(FILE *out, const MemPicture *p, const char *op) {
  unsigned lanes = (unsigned)__builtin_popcount(p->mask), sectors = p->tex.nsector + p->tex.more;
  fprintf(out,
          "<svg class=\"wm-pic\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
          "viewBox=\"0 0 %d %d\" role=\"img\" data-space=\"%s\" data-op=\"%s\" data-size=\"%u\" "
          "data-warp=\"%u\" data-lanes=\"%u\" data-texels=\"%u\" data-sectors=\"%u\" data-sectors-drawn=\"%u\" "
          "font-family=\"sans-serif\" font-size=\"9\">\n",
          WIDTH, HEIGHT, WIDTH, HEIGHT, p->texop == 1 ? "texture" : "surface", op, p->size, p->warp, lanes,
          p->tex.texels, sectors, p->tex.nsector);
  fprintf(out, "<title>warp %u: %u lanes, %s of %u texels of %u bytes: %u sectors%s</title>\n", p->warp, lanes, op,
          p->tex.texels, p->size, sectors, p->tex.more ? " (the first drawn)" : "");
}

/* Each lane joined to every sector its filter reads (the first by the
 * lane's own line, the others by the extra path drawn here); a lane whose
 * texels are all beyond the sectors kept (or border texels) has no line. */
static void tex_lanes(FILE *out, const MemPicture *p, const SectorRow *row, LaneDraw *d) {
  fputs("<path fill=\"none\" stroke=\"#2f5597\" stroke-opacity=\"0.5\" d=\"", out);
  for (uint32_t m = p->mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m), nsec = 0;
    int first = -1;
    for (unsigned k = 0; k < p->tex.nsector; k++) {
      if (!(p->tex.lanes[k] >> l & 1)) continue;
      int i = sector_index(row, p->tex.sector[k]);
      if (first < 0) first = (int)k, d[l].tx = row->x[i] + row->w / 2;
      else fprintf(out, "M%d %dL%d %d", lane_x(l), LANE_Y + LANE_H, row->x[i] + row->w / 2, ROW_Y);
      nsec++;
    }
    if (first >= 0)
      snprintf(d[l].attrs, sizeof d[l].attrs, "data-sector=\"%" PRIu64 "\" data-lane-sectors=\"%u\"",
               p->tex.sector[first], nsec);
    else
      snprintf(d[l].attrs, sizeof d[l].attrs, "data-lane-sectors=\"0\""), d[l].tx = -1;
    snprintf(d[l].fill, sizeof d[l].fill, "#c5e0b4");
    if (nsec > 1) snprintf(d[l].label, sizeof d[l].label, "%u s", nsec);
    else d[l].label[0] = '\0';
    d[l].label2[0] = '\0';
  }
  fputs("\"/>\n", out);
}

static void tex_picture(FILE *out, const MemPicture *p) {
  SectorRow rows, *row = &rows;
  memset(row, 0, sizeof *row);
  for (unsigned k = 0; k < p->tex.nsector; k++) add_sector(row, p->tex.sector[k]);
  layout_row(row);
  for (unsigned k = 0; k < p->tex.nsector; k++) row->touched[sector_index(row, p->tex.sector[k])] = 1;
  tex_svg_begin(out, p, tex_op_names[p->texop <= 3 ? p->texop - 1 : 0]);
  sector_boxes(out, row);
  LaneDraw d[32];
  tex_lanes(out, p, row, d);
  draw_lanes(out, p->mask, d);
  if (p->tex.more)
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%u more sectors, not drawn</text>\n", WIDTH - LEFT,
            LANE_Y - 6, p->tex.more);
  fputs("</svg>\n", out);
}

void report_picture_svg(FILE *out, const MemModel *mm, int instr) {
  if (!out || !mm || !mm->line || instr < 0 || instr >= mm->nline) return;
  const MemPicture *p = &mm->line[instr].pic;
  if (!p->mask) return;
  if (p->texop) tex_picture(out, p);
  else if (p->space == PTX_S_SHARED) bank_picture(out, mm, p);
  else sector_picture(out, p);
}
