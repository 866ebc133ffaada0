// Thread select of the barrier unit (seed 000 [0103]-[0106], [0117], [0123]): serves the
// participants of one critical-section portion one thread at a time in ascending logical id.
//
// The execution mask is generated one thread group (16 threads) at a time: each search cycle
// looks at one group's pending bits (participant, not yet served) above the last served
// offset with a find-next-set; an empty group costs one cycle and the search moves to the
// next group. When the last group is passed and a late arrival has joined meanwhile (the
// rescan flag), the search starts again at group 0, so late joiners below the current
// position run out of logical order; otherwise the portion is done.
//
// The selected thread is "awake" while sel_valid_o is high; next_i (its bottom was reached)
// retires it and searches in the same cycle, so a successor in the same group is awake in the
// next cycle (a one-cycle hand-off). The logical-to-physical map is kept per thread group:
// sel_phys_o = map[group] + offset.
module simt_thread_select #(
  parameter int MaxThreads = 256,   // logical ids per CTA, a multiple of 16
  parameter int PhysW      = 8,     // physical thread id width
  localparam int GroupSize = 16,
  localparam int NumGroups = MaxThreads / GroupSize,
  localparam int TidW      = $clog2(MaxThreads),
  localparam int GrpW      = (NumGroups > 1) ? $clog2(NumGroups) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Logical-to-physical map, written per thread group when a CTA launches.
  input  logic                  map_we_i,
  input  logic [GrpW-1:0]       map_group_i,
  input  logic [PhysW-1:0]      map_base_i,     // physical id of the group's first thread
  // Start a portion with these participants (all arrived).
  input  logic                  start_i,
  input  logic [MaxThreads-1:0] start_part_i,
  // A late arrival joins the running portion (sets the rescan flag).
  input  logic                  join_i,
  input  logic [TidW-1:0]       join_tid_i,
  // The awake thread reached its bottom: serve the next one.
  input  logic                  next_i,
  // bar.reset: drop the portion.
  input  logic                  abort_i,
  output logic                  busy_o,
  output logic                  sel_valid_o,
  output logic [TidW-1:0]       sel_tid_o,
  output logic [PhysW-1:0]      sel_phys_o,
  output logic                  done_o          // one-cycle pulse: every participant served
);

  logic [MaxThreads-1:0] pend_d, pend_q;        // participants not yet served
  logic [PhysW-1:0]      map_q [NumGroups];
  logic                  busy_d, busy_q;
  logic [GrpW-1:0]       grp_d, grp_q;          // the group being searched
  logic [4:0]            after_d, after_q;      // search offsets >= after_q (16: none left)
  logic                  rescan_d, rescan_q;
  logic                  sel_valid_d, sel_valid_q;
  logic [TidW-1:0]       sel_d, sel_q;
  logic                  done_d, done_q;

  // One group's execution mask: its pending bits, with the retiring thread cleared.
  logic [GroupSize-1:0]  gmask;
  logic                  g_found;
  logic [3:0]            g_off;
  logic                  searching;

  assign searching = busy_q && (!sel_valid_q || next_i) && !abort_i;

  always_comb begin
    gmask = pend_q[grp_q * GroupSize +: GroupSize];
    if (sel_valid_q && sel_q[TidW-1:4] == grp_q) gmask[sel_q[3:0]] = 1'b0;
  end

  simt_find_next_set #(.N(GroupSize), .Wrap(1'b0)) u_group_search (
    .vec_i   (after_q[4] ? '0 : gmask),
    .start_i (after_q[3:0]),
    .found_o (g_found),
    .idx_o   (g_off)
  );

  always_comb begin
    pend_d      = pend_q;
    busy_d      = busy_q;
    grp_d       = grp_q;
    after_d     = after_q;
    rescan_d    = rescan_q;
    sel_valid_d = sel_valid_q;
    sel_d       = sel_q;
    done_d      = 1'b0;
    if (abort_i) begin
      busy_d      = 1'b0;
      sel_valid_d = 1'b0;
      pend_d      = '0;
      rescan_d    = 1'b0;
    end else if (start_i) begin
      pend_d      = start_part_i;
      busy_d      = 1'b1;
      grp_d       = '0;
      after_d     = '0;
      rescan_d    = 1'b0;
      sel_valid_d = 1'b0;
    end else begin
      if (sel_valid_q && next_i) begin
        pend_d[sel_q] = 1'b0;
        sel_valid_d   = 1'b0;
      end
      if (searching) begin
        if (g_found) begin
          sel_valid_d = 1'b1;
          sel_d       = {grp_q, g_off};
          after_d     = {1'b0, g_off} + 5'd1;
        end else if (grp_q != GrpW'(NumGroups - 1)) begin
          grp_d   = grp_q + 1'b1;
          after_d = '0;
        end else if (rescan_q || join_i) begin
          grp_d    = '0;
          after_d  = '0;
          rescan_d = 1'b0;
        end else begin
          busy_d = 1'b0;
          done_d = 1'b1;
        end
      end
      // A late arrival: pending again (never served yet), found in order if still ahead of
      // the search, else by the rescan.
      if (join_i && busy_q) begin
        pend_d[join_tid_i] = 1'b1;
        if (!(searching && !g_found && grp_q == GrpW'(NumGroups - 1))) rescan_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_q      <= '0;
      busy_q      <= 1'b0;
      grp_q       <= '0;
      after_q     <= '0;
      rescan_q    <= 1'b0;
      sel_valid_q <= 1'b0;
      sel_q       <= '0;
      done_q      <= 1'b0;
    end else begin
      pend_q      <= pend_d;
      busy_q      <= busy_d;
      grp_q       <= grp_d;
      after_q     <= after_d;
      rescan_q    <= rescan_d;
      sel_valid_q <= sel_valid_d;
      sel_q       <= sel_d;
      done_q      <= done_d;
    end
  end

  // The map is configuration written at CTA launch: no reset needed.
  always_ff @(posedge clk_i) begin
    if (map_we_i) map_q[map_group_i] <= map_base_i;
  end

  assign busy_o      = busy_q;
  assign sel_valid_o = sel_valid_q;
  assign sel_tid_o   = sel_q;
  assign sel_phys_o  = map_q[sel_q[TidW-1:4]] + PhysW'(sel_q[3:0]);
  assign done_o      = done_q;

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!sel_valid_q || busy_q) else $error("thread_select: awake thread outside a portion");
      assert (!sel_valid_q || pend_q[sel_q]) else $error("thread_select: awake thread not pending");
      assert (!(start_i && busy_q)) else $error("thread_select: start while a portion runs");
      assert (!(next_i && !sel_valid_q)) else $error("thread_select: next without an awake thread");
      assert (!(join_i && !busy_q)) else $error("thread_select: join outside a portion");
      assert (!(done_q && busy_q)) else $error("thread_select: done while busy");
    end
  end
`endif

`ifdef FORMAL
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!sel_valid_q || busy_q);
      assert (!sel_valid_q || pend_q[sel_q]);
      assert (!done_q || !busy_q);
      assert (!after_q[4] || after_q[3:0] == '0);
    end
  end
`endif

endmodule
