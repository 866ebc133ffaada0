// L1 data cache (docs/blocks/l1_cache.md): set-associative, non-blocking, write-through
// without write-allocate, with the memory port (docs/blocks/mem_port.md) on both sides:
// the load/store unit's requests come in on core_req/core_rsp, misses, writes and atomics go
// out on mem_req/mem_rsp.
//
// Pipeline, one request per cycle:
//   accept  core request taken into stage A; the tag RAMs (one per way) read its set.
//   A       lookup: tags and valid bits give hit/way, the MSHRs give a line in flight; the
//           request is decided once (read hit, merge, allocate, forward) or holds (stall).
//   B       a read hit's line comes out of the data RAM and is answered.
// A fill (memory's answer to an MSHR) is buffered, installed in one cycle (its victim way
// chosen then: an invalid way, else tree pseudo-LRU; A decides only reads in that cycle, a hit
// only outside the fill's set, and before the fill), then answered from the answer buffer to
// every merged request, one per cycle, while the next fill installs. Writes and atomics leave through the same in-order
// request register as fills, so memory sees the cache's acceptance order for every address.
//
// Order (rule 3 of the port): a write or atomic to a line with an MSHR in flight holds in A
// until the fill is installed, so a fill never carries data older than a write accepted
// before a read that merges into it, and the installed line then takes the write (hit).
module simt_l1_cache #(
  parameter int  SizeBytes = 16384,
  parameter int  Ways      = 4,
  parameter int  LineBytes = 64,
  parameter int  Mshrs     = 8,
  parameter int  IdW       = 4,
  // Memory-side ids: the top bit says fill (low bits: the MSHR) or forwarded write/atomic
  // (low bits: the core's id).
  parameter int  MemIdW    = 1 + ((IdW > $clog2(Mshrs)) ? IdW : ((Mshrs > 1) ? $clog2(Mshrs) : 1)),
  localparam int Sets      = SizeBytes / (Ways * LineBytes),
  localparam int OffW      = $clog2(LineBytes),
  localparam int SetBits   = $clog2(Sets),
  localparam int SetW      = (Sets > 1) ? SetBits : 1,
  localparam int TagW      = 32 - OffW - SetBits,
  localparam int Levels    = $clog2(Ways),
  localparam int WayW      = (Ways > 1) ? Levels : 1,
  localparam int PlruW     = (Ways > 1) ? Ways - 1 : 1,
  localparam int Rows      = Sets * Ways,
  localparam int RowW      = (Rows > 1) ? $clog2(Rows) : 1,
  localparam int MshrW     = (Mshrs > 1) ? $clog2(Mshrs) : 1,
  localparam int NumIds    = 1 << IdW,
  localparam int LineW     = 32 - OffW
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  // Upstream (the load/store unit is the requester).
  input  logic                   core_req_valid_i,
  output logic                   core_req_ready_o,
  input  logic [IdW-1:0]         core_req_id_i,
  input  logic                   core_req_we_i,
  input  logic [3:0]             core_req_amo_i,
  input  logic [31:0]            core_req_addr_i,
  input  logic [LineBytes-1:0]   core_req_be_i,
  input  logic [LineBytes*8-1:0] core_req_wdata_i,
  input  logic [31:0]            core_req_cmp_i,
  output logic                   core_rsp_valid_o,
  input  logic                   core_rsp_ready_i,
  output logic [IdW-1:0]         core_rsp_id_o,
  output logic                   core_rsp_err_o,
  output logic [LineBytes*8-1:0] core_rsp_rdata_o,

  // Downstream (the cache is the requester).
  output logic                   mem_req_valid_o,
  input  logic                   mem_req_ready_i,
  output logic [MemIdW-1:0]      mem_req_id_o,
  output logic                   mem_req_we_o,
  output logic [3:0]             mem_req_amo_o,
  output logic [31:0]            mem_req_addr_o,
  output logic [LineBytes-1:0]   mem_req_be_o,
  output logic [LineBytes*8-1:0] mem_req_wdata_o,
  output logic [31:0]            mem_req_cmp_o,
  input  logic                   mem_rsp_valid_i,
  output logic                   mem_rsp_ready_o,
  input  logic [MemIdW-1:0]      mem_rsp_id_i,
  input  logic                   mem_rsp_err_i,
  input  logic [LineBytes*8-1:0] mem_rsp_rdata_i,

  // Control: invalidate every line (kernel launch; fills in flight then answer without
  // installing); nothing outstanding (membar).
  input  logic                   inv_i,
  output logic                   idle_o,

  // Counters (32 bits, wrapping): read and write lookups that hit / missed, read misses
  // that merged into an MSHR, fills that replaced a valid line.
  output logic [31:0]            cnt_hits_o,
  output logic [31:0]            cnt_misses_o,
  output logic [31:0]            cnt_merges_o,
  output logic [31:0]            cnt_evictions_o,

  // Decision trace (tests, performance monitors): A decided a request this cycle, and how;
  // a fill was installed (or dropped) this cycle, and where; A held for a reason.
  output logic                   evt_lookup_o,
  output logic [IdW-1:0]         evt_id_o,           // the core's id of the request decided
  output logic                   evt_hit_o,
  output logic [WayW-1:0]        evt_way_o,
  output logic                   evt_merge_o,
  output logic                   evt_alloc_o,
  output logic [MshrW-1:0]       evt_mshr_o,
  output logic                   evt_fill_o,
  output logic [MshrW-1:0]       evt_fill_mshr_o,
  output logic                   evt_fill_install_o,
  output logic [WayW-1:0]        evt_fill_way_o,
  output logic                   evt_fill_evict_o,
  output logic                   evt_stall_full_o,   // a read miss found every MSHR busy
  output logic                   evt_stall_order_o   // a line's MSHR holds a write/atomic
);

  // ---- Helpers ------------------------------------------------------------------------------
  function automatic logic [SetW-1:0] set_of(input logic [31:0] addr);
    set_of = SetW'((addr >> OffW) & 32'(Sets - 1));
  endfunction

  function automatic logic [TagW-1:0] tag_of(input logic [31:0] addr);
    tag_of = TagW'(addr >> (OffW + SetBits));
  endfunction

  function automatic logic [RowW-1:0] row_of(input logic [SetW-1:0] set,
                                             input logic [WayW-1:0] way);
    row_of = RowW'((32'(set) * 32'(Ways)) + 32'(way));
  endfunction

  // Tree pseudo-LRU over Ways (a power of two): node k (heap index k+1) points to the half
  // to replace next (0: lower ways). A touch points every node on the way's path away from it.
  function automatic logic [PlruW-1:0] plru_touch(input logic [PlruW-1:0] bits,
                                                   input logic [WayW-1:0] way);
    plru_touch = bits;
    for (int lv = 0; lv < Levels; lv++) begin
      for (int j = 0; j < (1 << lv); j++) begin
        if (((32'(Ways) + 32'(way)) >> (Levels - lv)) == 32'((1 << lv) + j)) begin
          plru_touch[(1 << lv) + j - 1] =
            (((32'(Ways) + 32'(way)) >> (Levels - lv - 1)) & 32'd1) == 32'd0;
        end
      end
    end
  endfunction

  function automatic logic [WayW-1:0] plru_victim(input logic [PlruW-1:0] bits);
    logic [31:0] n;
    n = 32'd1;
    for (int lv = 0; lv < Levels; lv++) n = 2 * n + 32'(bits[n - 1]);
    plru_victim = WayW'(n - 32'(Ways));
  endfunction

  // ---- State --------------------------------------------------------------------------------
  // Stage A: the request being looked up; a_new_q: its tags come from the tag RAMs this
  // cycle (else from a_tags_q, kept while it holds).
  logic                   a_valid_d, a_valid_q;
  logic                   a_new_d, a_new_q;
  logic [IdW-1:0]         a_id_d, a_id_q;
  logic                   a_we_d, a_we_q;
  logic [3:0]             a_amo_d, a_amo_q;
  logic [31:0]            a_addr_d, a_addr_q;
  logic [LineBytes-1:0]   a_be_d, a_be_q;
  logic [LineBytes*8-1:0] a_wdata_d, a_wdata_q;
  logic [31:0]            a_cmp_d, a_cmp_q;
  logic [TagW-1:0]        a_tags_d [Ways];
  logic [TagW-1:0]        a_tags_q [Ways];

  // Last cycle's tag write (a fill), forwarded into A's tags.
  logic                   tw_valid_d, tw_valid_q;
  logic [SetW-1:0]        tw_set_d, tw_set_q;
  logic [WayW-1:0]        tw_way_d, tw_way_q;
  logic [TagW-1:0]        tw_tag_d, tw_tag_q;

  // Stage B: a read hit whose line is the data RAM's read data.
  logic                   b_valid_d, b_valid_q;
  logic [IdW-1:0]         b_id_d, b_id_q;

  // Line state: valid bits (set * Ways + way) and pseudo-LRU bits (set * PlruW + node) in
  // registers; the tags are in RAM.
  logic [Sets*Ways-1:0]   valid_d, valid_q;
  logic [Sets*PlruW-1:0]  plru_d, plru_q;

  // MSHRs: the line, the core ids waiting for it, and whether its fill may install.
  logic [Mshrs-1:0]       mshr_valid_d, mshr_valid_q;
  logic [Mshrs*LineW-1:0]  mshr_line_d, mshr_line_q;   // MSHR m: [m*LineW +: LineW]
  logic [Mshrs*NumIds-1:0] mshr_wait_d, mshr_wait_q;   // MSHR m: [m*NumIds +: NumIds]
  logic [Mshrs-1:0]       mshr_noalloc_d, mshr_noalloc_q;

  // The memory request register (fills, writes, atomics in decision order).
  logic                   mq_valid_d, mq_valid_q;
  logic [MemIdW-1:0]      mq_id_d, mq_id_q;
  logic                   mq_we_d, mq_we_q;
  logic [3:0]             mq_amo_d, mq_amo_q;
  logic [31:0]            mq_addr_d, mq_addr_q;
  logic [LineBytes-1:0]   mq_be_d, mq_be_q;
  logic [LineBytes*8-1:0] mq_wdata_d, mq_wdata_q;
  logic [31:0]            mq_cmp_d, mq_cmp_q;

  // The memory response buffer: a forwarded request's answer, or a fill (installed in its
  // first cycle; mrb_inst_q: installed, its waiters in mrb_wait_q), until the answer buffer
  // takes it (in that first cycle when it is free).
  logic                   mrb_valid_d, mrb_valid_q;
  logic                   mrb_fill_d, mrb_fill_q;
  logic                   mrb_inst_d, mrb_inst_q;
  logic [MemIdW-1:0]      mrb_id_d, mrb_id_q;
  logic                   mrb_err_d, mrb_err_q;
  logic [LineBytes*8-1:0] mrb_data_d, mrb_data_q;
  logic [NumIds-1:0]      mrb_wait_d, mrb_wait_q;
  // The answer buffer: what the core is answered from (a fill's waiters one per cycle, lowest
  // id first), so the next fill installs while this one answers.
  logic                   ans_valid_d, ans_valid_q;
  logic                   ans_fill_d, ans_fill_q;
  logic [MemIdW-1:0]      ans_id_d, ans_id_q;
  logic                   ans_err_d, ans_err_q;
  logic [LineBytes*8-1:0] ans_data_d, ans_data_q;
  logic [NumIds-1:0]      ans_wait_d, ans_wait_q;

  // Forwarded writes/atomics outstanding, by core id.
  logic [NumIds-1:0]      pt_out_d, pt_out_q;

  // Core response arbitration: an offer not taken stays (held_q, held_b_q: which source);
  // otherwise B and the response buffer alternate (prio_b_q: B first).
  logic                   held_d, held_q, held_b_d, held_b_q, prio_b_d, prio_b_q;

  logic [31:0]            cnt_hits_d, cnt_hits_q, cnt_misses_d, cnt_misses_q;
  logic [31:0]            cnt_merges_d, cnt_merges_q, cnt_evict_d, cnt_evict_q;

  // ---- RAMs ---------------------------------------------------------------------------------
  logic            tag_re;
  logic [SetW-1:0] tag_raddr;
  logic [Ways-1:0] tag_we;
  logic [SetW-1:0] tag_waddr;
  logic [TagW-1:0] tag_wdata;
  logic [TagW-1:0] tag_rdata [Ways];

  for (genvar w = 0; w < Ways; w++) begin : g_tag
    simt_ram_1r1w #(.Width(TagW), .Depth(Sets)) u_tag_ram (
      .clk_i   (clk_i),
      .we_i    (tag_we[w]),
      .waddr_i (tag_waddr),
      .wdata_i (tag_wdata),
      // A request taken while a fill installs into its set does not read the way being
      // written (its tag comes from the fill: tw_*, next cycle).
      .re_i    (tag_re && !(tag_we[w] && tag_waddr == tag_raddr)),
      .raddr_i (tag_raddr),
      .rdata_o (tag_rdata[w])
    );
  end

  logic                   data_we, data_re;
  logic [RowW-1:0]        data_waddr, data_raddr;
  logic [LineBytes-1:0]   data_be;
  logic [LineBytes*8-1:0] data_wdata, data_rdata;

  simt_l1_data_ram #(.Bytes(LineBytes), .Depth(Rows)) u_data_ram (
    .clk_i   (clk_i),
    .we_i    (data_we),
    .waddr_i (data_waddr),
    .be_i    (data_be),
    .wdata_i (data_wdata),
    .re_i    (data_re),
    .raddr_i (data_raddr),
    .rdata_o (data_rdata)
  );

  // ---- Stage A: lookup ----------------------------------------------------------------------
  logic [SetW-1:0]  a_set;
  logic [TagW-1:0]  a_tag;
  logic [LineW-1:0] a_line;
  logic             a_read, a_write, a_amo;
  assign a_set   = set_of(a_addr_q);
  assign a_tag   = tag_of(a_addr_q);
  assign a_line  = a_addr_q[31:OffW];
  assign a_amo   = a_amo_q != simt_mem_pkg::AmoNone;
  assign a_write = a_we_q && !a_amo;
  assign a_read  = !a_we_q && !a_amo;

  // A's tags: fresh from the RAMs or kept, with last cycle's fill of the same set applied.
  logic [TagW-1:0] a_tags [Ways];
  always_comb begin
    for (int w = 0; w < Ways; w++) begin
      a_tags[w] = a_new_q ? tag_rdata[w] : a_tags_q[w];
      if (tw_valid_q && tw_set_q == a_set && tw_way_q == WayW'(w)) a_tags[w] = tw_tag_q;
    end
  end

  logic [Ways-1:0] hit_vec;
  logic            hit;
  logic [WayW-1:0] hit_way;
  always_comb begin
    hit_way = '0;
    for (int w = 0; w < Ways; w++) begin
      hit_vec[w] = valid_q[32'(a_set) * Ways + w] && a_tags[w] == a_tag;
      if (hit_vec[w]) hit_way = WayW'(w);
    end
    hit = hit_vec != '0;
  end

  logic [Mshrs-1:0] match_vec;
  logic             match, match_noalloc, have_free;
  logic [MshrW-1:0] match_idx, free_idx;
  always_comb begin
    match_idx = '0;
    free_idx  = '0;
    have_free = 1'b0;
    for (int m = Mshrs - 1; m >= 0; m--) begin
      match_vec[m] = mshr_valid_q[m] && mshr_line_q[m*LineW +: LineW] == a_line;
      if (match_vec[m]) match_idx = MshrW'(m);
      if (!mshr_valid_q[m]) begin
        free_idx  = MshrW'(m);
        have_free = 1'b1;
      end
    end
    match         = match_vec != '0;
    match_noalloc = match && mshr_noalloc_q[match_idx];
  end

  // ---- Fill: the buffered fill is installed this cycle --------------------------------------
  logic             fill_now, fill_install, fill_evict;
  logic [MshrW-1:0] fill_m;
  logic [SetW-1:0]  fill_set;
  logic [TagW-1:0]  fill_tag;
  logic [WayW-1:0]  fill_way;
  assign fill_now = mrb_valid_q && mrb_fill_q && !mrb_inst_q;
  assign fill_m   = MshrW'(mrb_id_q);
  assign fill_set = set_of({mshr_line_q[32'(fill_m) * LineW +: LineW], OffW'(0)});
  assign fill_tag = tag_of({mshr_line_q[32'(fill_m) * LineW +: LineW], OffW'(0)});
  assign fill_install = fill_now && !mrb_err_q && !mshr_noalloc_q[fill_m];
  always_comb begin
    logic found;
    found    = 1'b0;
    fill_way = plru_victim(plru_q[32'(fill_set) * PlruW +: PlruW]);
    for (int w = 0; w < Ways; w++) begin
      if (!found && !valid_q[32'(fill_set) * Ways + w]) begin
        fill_way = WayW'(w);
        found    = 1'b1;
      end
    end
    fill_evict = fill_install && !found;
  end

  // ---- Handshakes ---------------------------------------------------------------------------
  logic mem_req_fire, mem_rsp_fire, core_req_fire, core_rsp_fire;
  logic mq_space, b_free, b_drain, m_offer, grant_b, grant_m, ans_release, ans_take, a_adv;
  logic [IdW-1:0] ans_first;

  assign mem_req_fire  = mq_valid_q && mem_req_ready_i;
  assign mq_space      = !mq_valid_q || mem_req_ready_i;
  assign core_req_ready_o = !a_valid_q || a_adv;
  assign core_req_fire = core_req_valid_i && core_req_ready_o;

  always_comb begin
    ans_first = '0;
    for (int i = NumIds - 1; i >= 0; i--) begin
      if (ans_wait_q[i]) ans_first = IdW'(i);
    end
  end

  assign m_offer = ans_valid_q;
  always_comb begin
    if (held_q) begin
      grant_b = held_b_q;
    end else begin
      grant_b = b_valid_q && (!m_offer || prio_b_q);
    end
    grant_m = m_offer && !grant_b;
  end
  assign core_rsp_valid_o = grant_b || grant_m;
  assign core_rsp_fire    = core_rsp_valid_o && core_rsp_ready_i;
  assign core_rsp_id_o    = grant_b ? b_id_q : (ans_fill_q ? ans_first : IdW'(ans_id_q));
  assign core_rsp_err_o   = grant_m && ans_err_q;
  assign core_rsp_rdata_o = grant_b ? data_rdata : ans_data_q;

  assign b_drain = grant_b && core_rsp_ready_i;
  assign b_free  = !b_valid_q || b_drain;
  // The answer buffer frees when its last answer goes, and takes the response buffer's then
  // (a fill in its install cycle included); the response buffer takes memory's next.
  assign ans_release = grant_m && core_rsp_ready_i &&
                       (!ans_fill_q || (ans_wait_q & ~(NumIds'(1) << ans_first)) == '0);
  assign ans_take        = mrb_valid_q && (!ans_valid_q || ans_release);
  assign mem_rsp_ready_o = !mrb_valid_q || ans_take;
  assign mem_rsp_fire    = mem_rsp_valid_i && mem_rsp_ready_o;

  // ---- Decision -----------------------------------------------------------------------------
  logic do_hit_read, do_merge, do_alloc, do_pass, stall_full, stall_order;
  always_comb begin
    a_adv       = 1'b0;
    do_hit_read = 1'b0;
    do_merge    = 1'b0;
    do_alloc    = 1'b0;
    do_pass     = 1'b0;
    stall_full  = 1'b0;
    stall_order = 1'b0;
    // In a fill's install cycle only reads and write misses decide (a write's or an atomic's
    // hit would meet the fill's data write and valid bits; a write miss of another line only
    // goes on to memory, and its line is none the fill installs: that would be an MSHR's,
    // match), and a read hit not in the fill's set (the hit's and the fill's pseudo-LRU
    // updates); a decision there comes before the fill (a read merging into the MSHR being
    // filled is answered from it). (Until 2026-12-06 writes waited: a streaming kernel's
    // stores then waited a cycle for every line filled.)
    if (a_valid_q && (!fill_now || a_read || (a_write && !hit && !match))) begin
      if (match_noalloc) begin
        // A fill that may not install (invalidated in flight): wait for it, then miss.
        stall_order = 1'b1;
      end else if (a_read) begin
        if (hit) begin
          do_hit_read = b_free && !(fill_now && a_set == fill_set);
        end else if (match) begin
          do_merge = 1'b1;
        end else if (have_free) begin
          do_alloc = mq_space;
        end else begin
          stall_full = 1'b1;
        end
      end else if (match) begin
        stall_order = 1'b1;
      end else begin
        do_pass = mq_space;
      end
      a_adv = do_hit_read || do_merge || do_alloc || do_pass;
    end
  end

  // ---- Next state ---------------------------------------------------------------------------
  always_comb begin
    // Stage A.
    a_valid_d = a_valid_q && !a_adv;
    a_new_d   = 1'b0;
    a_id_d    = a_id_q;
    a_we_d    = a_we_q;
    a_amo_d   = a_amo_q;
    a_addr_d  = a_addr_q;
    a_be_d    = a_be_q;
    a_wdata_d = a_wdata_q;
    a_cmp_d   = a_cmp_q;
    for (int w = 0; w < Ways; w++) a_tags_d[w] = a_tags[w];
    tag_re    = core_req_fire;
    tag_raddr = set_of(core_req_addr_i);
    if (core_req_fire) begin
      a_valid_d = 1'b1;
      a_new_d   = 1'b1;
      a_id_d    = core_req_id_i;
      a_we_d    = core_req_we_i;
      a_amo_d   = core_req_amo_i;
      a_addr_d  = core_req_addr_i;
      a_be_d    = core_req_be_i;
      a_wdata_d = core_req_wdata_i;
      a_cmp_d   = core_req_cmp_i;
    end

    // RAM writes and reads.
    tag_we     = '0;
    tag_waddr  = fill_set;
    tag_wdata  = fill_tag;
    tw_valid_d = 1'b0;
    tw_set_d   = fill_set;
    tw_way_d   = fill_way;
    tw_tag_d   = fill_tag;
    data_we    = 1'b0;
    data_waddr = row_of(a_set, hit_way);
    data_be    = a_be_q;
    data_wdata = a_wdata_q;
    data_re    = do_hit_read;
    data_raddr = row_of(a_set, hit_way);

    valid_d = valid_q;
    plru_d  = plru_q;
    b_valid_d = (b_valid_q && !b_drain) || do_hit_read;
    b_id_d    = do_hit_read ? a_id_q : b_id_q;

    mshr_valid_d   = mshr_valid_q;
    mshr_line_d    = mshr_line_q;
    mshr_wait_d    = mshr_wait_q;
    mshr_noalloc_d = mshr_noalloc_q;

    mq_valid_d = mq_valid_q && !mem_req_fire;
    mq_id_d    = mq_id_q;
    mq_we_d    = mq_we_q;
    mq_amo_d   = mq_amo_q;
    mq_addr_d  = mq_addr_q;
    mq_be_d    = mq_be_q;
    mq_wdata_d = mq_wdata_q;
    mq_cmp_d   = mq_cmp_q;

    pt_out_d = pt_out_q;

    cnt_hits_d   = cnt_hits_q;
    cnt_misses_d = cnt_misses_q;
    cnt_merges_d = cnt_merges_q;
    cnt_evict_d  = cnt_evict_q;

    // Read hit: the line is read for B; the way becomes most recently used.
    if (do_hit_read) begin
      plru_d[32'(a_set) * PlruW +: PlruW] = plru_touch(plru_q[32'(a_set) * PlruW +: PlruW],
                                                       hit_way);
      cnt_hits_d = cnt_hits_q + 32'd1;
    end
    // Read miss into a line in flight.
    if (do_merge) begin
      mshr_wait_d[32'(match_idx) * NumIds + 32'(a_id_q)] = 1'b1;
      cnt_misses_d = cnt_misses_q + 32'd1;
      cnt_merges_d = cnt_merges_q + 32'd1;
    end
    // Read miss: a new MSHR and its line request.
    if (do_alloc) begin
      mshr_valid_d[free_idx]   = 1'b1;
      mshr_line_d[32'(free_idx) * LineW +: LineW]   = a_line;
      mshr_wait_d[32'(free_idx) * NumIds +: NumIds] = NumIds'(1) << a_id_q;
      mshr_noalloc_d[free_idx] = 1'b0;
      mq_valid_d = 1'b1;
      mq_id_d    = MemIdW'(free_idx);
      mq_we_d    = 1'b0;
      mq_amo_d   = simt_mem_pkg::AmoNone;
      mq_addr_d  = {a_line, OffW'(0)};
      mq_be_d    = '1;
      mq_wdata_d = '0;
      mq_cmp_d   = '0;
      cnt_misses_d = cnt_misses_q + 32'd1;
    end
    // Write or atomic: forwarded; a write updates a present line, an atomic invalidates it.
    if (do_pass) begin
      mq_valid_d = 1'b1;
      mq_id_d    = MemIdW'(a_id_q) | (MemIdW'(1) << (MemIdW - 1));
      mq_we_d    = a_we_q;
      mq_amo_d   = a_amo_q;
      mq_addr_d  = a_addr_q;
      mq_be_d    = a_be_q;
      mq_wdata_d = a_wdata_q;
      mq_cmp_d   = a_cmp_q;
      pt_out_d[a_id_q] = 1'b1;
      if (a_write) begin
        if (hit) begin
          data_we    = 1'b1;
          plru_d[32'(a_set) * PlruW +: PlruW] = plru_touch(plru_q[32'(a_set) * PlruW +: PlruW],
                                                           hit_way);
          cnt_hits_d = cnt_hits_q + 32'd1;
        end else begin
          cnt_misses_d = cnt_misses_q + 32'd1;
        end
      end else if (hit) begin
        valid_d[32'(a_set) * Ways + 32'(hit_way)] = 1'b0;
      end
    end

    // Memory response buffer, then the answer buffer.
    mrb_valid_d = mrb_valid_q && !ans_take;
    mrb_fill_d  = mrb_fill_q;
    mrb_inst_d  = mrb_inst_q;
    mrb_id_d    = mrb_id_q;
    mrb_err_d   = mrb_err_q;
    mrb_data_d  = mrb_data_q;
    mrb_wait_d  = mrb_wait_q;
    ans_valid_d = ans_valid_q && !ans_release;
    ans_fill_d  = ans_fill_q;
    ans_id_d    = ans_id_q;
    ans_err_d   = ans_err_q;
    ans_data_d  = ans_data_q;
    ans_wait_d  = ans_wait_q;
    if (fill_now) begin
      mrb_inst_d = 1'b1;
      mrb_wait_d = mshr_wait_q[32'(fill_m) * NumIds +: NumIds];
      if (do_merge && match_idx == fill_m) mrb_wait_d[a_id_q] = 1'b1;
      mshr_valid_d[fill_m] = 1'b0;
      if (fill_install) begin
        tag_we[fill_way]          = 1'b1;
        tw_valid_d                = 1'b1;
        data_we                   = 1'b1;
        data_waddr                = row_of(fill_set, fill_way);
        data_be                   = '1;
        data_wdata                = mrb_data_q;
        valid_d[32'(fill_set) * Ways + 32'(fill_way)] = 1'b1;
        plru_d[32'(fill_set) * PlruW +: PlruW] = plru_touch(plru_q[32'(fill_set) * PlruW +: PlruW],
                                                            fill_way);
        if (fill_evict) cnt_evict_d = cnt_evict_q + 32'd1;
      end
    end
    if (grant_m && core_rsp_ready_i) begin
      if (ans_fill_q) begin
        ans_wait_d[ans_first] = 1'b0;
      end else begin
        pt_out_d[IdW'(ans_id_q)] = 1'b0;
      end
    end
    if (ans_take) begin
      ans_valid_d = 1'b1;
      ans_fill_d  = mrb_fill_q;
      ans_id_d    = mrb_id_q;
      ans_err_d   = mrb_err_q;
      ans_data_d  = mrb_data_q;
      ans_wait_d  = mrb_wait_d;  // a fill's waiters (copied this cycle if it installs now)
    end
    if (mem_rsp_fire) begin
      mrb_valid_d = 1'b1;
      mrb_fill_d  = !mem_rsp_id_i[MemIdW-1];
      mrb_inst_d  = 1'b0;
      mrb_id_d    = mem_rsp_id_i;
      mrb_err_d   = mem_rsp_err_i;
      mrb_data_d  = mem_rsp_rdata_i;
    end

    // Invalidate all: every line; fills in flight answer without installing.
    if (inv_i) begin
      valid_d = '0;
      mshr_noalloc_d = '1;
    end

    // Response arbitration.
    held_d   = core_rsp_valid_o && !core_rsp_ready_i;
    held_b_d = grant_b;
    prio_b_d = prio_b_q;
    if (core_rsp_fire && b_valid_q && m_offer) prio_b_d = !grant_b;
  end

  // ---- Outputs ------------------------------------------------------------------------------
  assign mem_req_valid_o = mq_valid_q;
  assign mem_req_id_o    = mq_id_q;
  assign mem_req_we_o    = mq_we_q;
  assign mem_req_amo_o   = mq_amo_q;
  assign mem_req_addr_o  = mq_addr_q;
  assign mem_req_be_o    = mq_be_q;
  assign mem_req_wdata_o = mq_wdata_q;
  assign mem_req_cmp_o   = mq_cmp_q;

  assign idle_o = !a_valid_q && !b_valid_q && !mrb_valid_q && !ans_valid_q && !mq_valid_q &&
                  mshr_valid_q == '0 && pt_out_q == '0;

  assign cnt_hits_o      = cnt_hits_q;
  assign cnt_misses_o    = cnt_misses_q;
  assign cnt_merges_o    = cnt_merges_q;
  assign cnt_evictions_o = cnt_evict_q;

  assign evt_lookup_o       = a_adv;
  assign evt_id_o           = a_id_q;
  assign evt_hit_o          = hit;
  assign evt_way_o          = hit_way;
  assign evt_merge_o        = do_merge;
  assign evt_alloc_o        = do_alloc;
  assign evt_mshr_o         = do_merge ? match_idx : free_idx;
  assign evt_fill_o         = fill_now;
  assign evt_fill_mshr_o    = fill_m;
  assign evt_fill_install_o = fill_install;
  assign evt_fill_way_o     = fill_way;
  assign evt_fill_evict_o   = fill_evict;
  assign evt_stall_full_o   = stall_full;
  assign evt_stall_order_o  = stall_order;

  // ---- Registers ----------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q      <= 1'b0;
      a_new_q        <= 1'b0;
      a_id_q         <= '0;
      a_we_q         <= 1'b0;
      a_amo_q        <= '0;
      a_addr_q       <= '0;
      a_be_q         <= '0;
      a_wdata_q      <= '0;
      a_cmp_q        <= '0;
      for (int w = 0; w < Ways; w++) a_tags_q[w] <= '0;
      tw_valid_q     <= 1'b0;
      tw_set_q       <= '0;
      tw_way_q       <= '0;
      tw_tag_q       <= '0;
      b_valid_q      <= 1'b0;
      b_id_q         <= '0;
      valid_q        <= '0;
      plru_q         <= '0;
      mshr_valid_q   <= '0;
      mshr_line_q    <= '0;
      // (mshr_wait_q: no reset; an MSHR's wait bits are written whole when it is taken and
      // read only while it is valid. Mshrs x request ids: 16 Kbit at 128 x 128.)
      mshr_noalloc_q <= '0;
      mq_valid_q     <= 1'b0;
      mq_id_q        <= '0;
      mq_we_q        <= 1'b0;
      mq_amo_q       <= '0;
      mq_addr_q      <= '0;
      mq_be_q        <= '0;
      mq_wdata_q     <= '0;
      mq_cmp_q       <= '0;
      mrb_valid_q    <= 1'b0;
      mrb_fill_q     <= 1'b0;
      mrb_inst_q     <= 1'b0;
      mrb_id_q       <= '0;
      mrb_err_q      <= 1'b0;
      mrb_data_q     <= '0;
      mrb_wait_q     <= '0;
      ans_valid_q    <= 1'b0;
      ans_fill_q     <= 1'b0;
      ans_id_q       <= '0;
      ans_err_q      <= 1'b0;
      ans_data_q     <= '0;
      ans_wait_q     <= '0;
      pt_out_q       <= '0;
      held_q         <= 1'b0;
      held_b_q       <= 1'b0;
      prio_b_q       <= 1'b0;
      cnt_hits_q     <= '0;
      cnt_misses_q   <= '0;
      cnt_merges_q   <= '0;
      cnt_evict_q    <= '0;
    end else begin
      a_valid_q      <= a_valid_d;
      a_new_q        <= a_new_d;
      a_id_q         <= a_id_d;
      a_we_q         <= a_we_d;
      a_amo_q        <= a_amo_d;
      a_addr_q       <= a_addr_d;
      a_be_q         <= a_be_d;
      a_wdata_q      <= a_wdata_d;
      a_cmp_q        <= a_cmp_d;
      for (int w = 0; w < Ways; w++) a_tags_q[w] <= a_tags_d[w];
      tw_valid_q     <= tw_valid_d;
      tw_set_q       <= tw_set_d;
      tw_way_q       <= tw_way_d;
      tw_tag_q       <= tw_tag_d;
      b_valid_q      <= b_valid_d;
      b_id_q         <= b_id_d;
      valid_q        <= valid_d;
      plru_q         <= plru_d;
      mshr_valid_q   <= mshr_valid_d;
      mshr_line_q    <= mshr_line_d;
      mshr_wait_q    <= mshr_wait_d;
      mshr_noalloc_q <= mshr_noalloc_d;
      mq_valid_q     <= mq_valid_d;
      mq_id_q        <= mq_id_d;
      mq_we_q        <= mq_we_d;
      mq_amo_q       <= mq_amo_d;
      mq_addr_q      <= mq_addr_d;
      mq_be_q        <= mq_be_d;
      mq_wdata_q     <= mq_wdata_d;
      mq_cmp_q       <= mq_cmp_d;
      mrb_valid_q    <= mrb_valid_d;
      mrb_fill_q     <= mrb_fill_d;
      mrb_inst_q     <= mrb_inst_d;
      mrb_id_q       <= mrb_id_d;
      mrb_err_q      <= mrb_err_d;
      mrb_data_q     <= mrb_data_d;
      mrb_wait_q     <= mrb_wait_d;
      ans_valid_q    <= ans_valid_d;
      ans_fill_q     <= ans_fill_d;
      ans_id_q       <= ans_id_d;
      ans_err_q      <= ans_err_d;
      ans_data_q     <= ans_data_d;
      ans_wait_q     <= ans_wait_d;
      pt_out_q       <= pt_out_d;
      held_q         <= held_d;
      held_b_q       <= held_b_d;
      prio_b_q       <= prio_b_d;
      cnt_hits_q     <= cnt_hits_d;
      cnt_misses_q   <= cnt_misses_d;
      cnt_merges_q   <= cnt_merges_d;
      cnt_evict_q    <= cnt_evict_d;
    end
  end

  // ---- Assertions ---------------------------------------------------------------------------
`ifdef VERILATOR
  logic [NumIds-1:0]         core_out_q;   // core ids accepted and not yet answered
  logic [(1 << MemIdW)-1:0]  mem_out_q;    // memory ids sent and not yet answered
  logic [31:0]               undecided_q;  // requests accepted minus requests decided
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      core_out_q  <= '0;
      mem_out_q   <= '0;
      undecided_q <= '0;
    end else begin
      undecided_q <= undecided_q + 32'(core_req_fire) - 32'(a_adv);
      if (core_rsp_fire) core_out_q[core_rsp_id_o] <= 1'b0;
      if (core_req_fire) core_out_q[core_req_id_i] <= 1'b1;
      if (mem_rsp_fire) mem_out_q[mem_rsp_id_i] <= 1'b0;
      if (mem_req_fire) mem_out_q[mem_req_id_o] <= 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (core_req_fire) begin
        assert (!core_out_q[core_req_id_i] || (core_rsp_fire && core_rsp_id_o == core_req_id_i))
          else $error("l1_cache: a core id reused before its response");
        assert (core_req_addr_i[OffW-1:0] == '0)
          else $error("l1_cache: a request address inside a line");
        assert (core_req_amo_i == simt_mem_pkg::AmoNone || !core_req_we_i)
          else $error("l1_cache: an atomic that writes");
      end
      if (core_rsp_fire) begin
        assert (core_out_q[core_rsp_id_o])
          else $error("l1_cache: a response without an outstanding request");
      end
      if (mem_rsp_fire) begin
        assert (mem_out_q[mem_rsp_id_i])
          else $error("l1_cache: a memory response without an outstanding request");
      end
      if (mem_req_fire) begin
        assert (!mem_out_q[mem_req_id_o])
          else $error("l1_cache: a memory id reused before its response");
      end
      // Every accepted request is decided exactly once, in order (A holds at most one).
      assert (undecided_q == 32'(a_valid_q))
        else $error("l1_cache: a request decided twice or never");
      // One decision per request in A, and a present line has no MSHR.
      assert ($countones({do_hit_read, do_merge, do_alloc, do_pass}) <= 1)
        else $error("l1_cache: two decisions for one request");
      assert (!(a_adv && !a_valid_q)) else $error("l1_cache: a decision without a request");
      if (a_valid_q) begin
        assert ($countones(hit_vec) <= 1) else $error("l1_cache: a line in two ways");
        assert (!(hit && match)) else $error("l1_cache: a present line with an MSHR");
        assert ($countones(match_vec) <= 1) else $error("l1_cache: two MSHRs for one line");
      end
      if (do_alloc) begin
        assert (!mshr_valid_q[free_idx]) else $error("l1_cache: an MSHR allocated twice");
      end
      if (fill_now) begin
        assert (mshr_valid_q[fill_m] && mshr_wait_q[32'(fill_m) * NumIds +: NumIds] != '0)
          else $error("l1_cache: a fill for an idle MSHR");
        assert (!(a_adv && ((!a_read && !(a_write && do_pass && !hit)) ||
                            (do_hit_read && a_set == fill_set))))
          else $error("l1_cache: a write hit, atomic or same-set hit decided in a fill cycle");
      end
      if (ans_valid_q && ans_fill_q) begin
        assert (ans_wait_q != '0) else $error("l1_cache: a fill answered with nobody waiting");
      end
      // A response offered and not taken stays (rule 1 of the port).
      if (held_q) begin
        assert (core_rsp_valid_o) else $error("l1_cache: a response withdrawn");
      end
      // Only a fill's waiters and forwarded requests are answered from the buffer.
      if (grant_m && !ans_fill_q) begin
        assert (pt_out_q[IdW'(ans_id_q)]) else $error("l1_cache: a forwarded answer not asked");
      end
      // Nothing outstanding is lost: every core id outstanding is somewhere.
      for (int i = 0; i < NumIds; i++) begin
        if (core_out_q[i]) begin
          logic found;
          found = pt_out_q[i] || (b_valid_q && b_id_q == IdW'(i)) ||
                  (a_valid_q && a_id_q == IdW'(i)) ||
                  (mrb_valid_q && mrb_fill_q && mrb_inst_q && mrb_wait_q[i]) ||
                  (ans_valid_q && ans_fill_q && ans_wait_q[i]);
          for (int m = 0; m < Mshrs; m++) begin
            found = found || (mshr_valid_q[m] && mshr_wait_q[m*NumIds + i]);
          end
          assert (found) else $error("l1_cache: an outstanding request lost");
        end
      end
    end
  end
`endif

endmodule
