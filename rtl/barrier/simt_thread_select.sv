// Thread select of the barrier unit (seed 000 [0103]-[0106], [0117], [0123]): finds the next
// participant of a critical-section portion to run, in ascending logical id.
//
// It is a search engine shared by every section in service: the barrier table starts a search
// with the portion's pending members (start_part_i, read from the thread state table) and the
// position after the thread it served last (start_from_i), when a slot is granted (from 0)
// and when the section's thread reaches its bottom. The execution mask is generated one
// thread group (16 threads) at a time: each search cycle looks at one group's pending bits at
// or above the position with a find-next-set, the first group in the start cycle itself; an
// empty group costs one cycle and the search moves on. Past the last group, if anything is
// pending (late joiners below the position: the seed's rescan), the search runs once more
// from group 0, so those run out of logical order; with nothing pending the search is done
// at once. The found thread is held (sel_valid_o) until the table has woken it (clear_i),
// which frees the engine for another section. The logical-to-physical map is kept per
// thread group: sel_phys_o = map[group] + offset.
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
  // Search the pending members at or above start_from_i (MaxThreads: none above).
  input  logic                  start_i,
  input  logic [MaxThreads-1:0] start_part_i,
  input  logic [TidW:0]         start_from_i,
  // The selected thread was taken, or the portion dropped: the search ends.
  input  logic                  clear_i,
  output logic                  busy_o,
  output logic                  sel_valid_o,
  output logic [TidW-1:0]       sel_tid_o,
  output logic [PhysW-1:0]      sel_phys_o,
  output logic                  done_o          // one-cycle pulse: nobody pending
);

  logic [MaxThreads-1:0] pend_d, pend_q;        // members pending when the search started
  logic [PhysW-1:0]      map_q [NumGroups];
  logic                  busy_d, busy_q;
  logic [GrpW-1:0]       grp_d, grp_q;          // the group being searched
  logic [4:0]            after_d, after_q;      // search offsets >= after_q (16: none left)
  logic                  wrap_d, wrap_q;        // a pass from group 0 follows
  logic                  sel_valid_d, sel_valid_q;
  logic [TidW-1:0]       sel_d, sel_q;
  logic                  done_d, done_q;

  // The group searched this cycle: the start's own first group, or the one in progress.
  logic                  any_part, searching, s_wrap;
  logic [GrpW-1:0]       s_grp;
  logic [4:0]            s_after;
  logic [GroupSize-1:0]  s_mask;
  logic                  g_found;
  logic [3:0]            g_off;

  assign any_part  = |start_part_i;
  assign searching = !clear_i && (start_i || (busy_q && !sel_valid_q));

  always_comb begin
    if (start_i) begin
      s_grp   = start_from_i[TidW] ? '0 : GrpW'(start_from_i[TidW-1:4]);
      s_after = start_from_i[TidW] ? 5'd0 : {1'b0, start_from_i[3:0]};
      s_wrap  = !start_from_i[TidW] && (start_from_i != '0);
      s_mask  = any_part ? start_part_i[s_grp * GroupSize +: GroupSize] : '0;
    end else begin
      s_grp   = grp_q;
      s_after = after_q;
      s_wrap  = wrap_q;
      s_mask  = pend_q[grp_q * GroupSize +: GroupSize];
    end
  end

  simt_find_next_set #(.N(GroupSize), .Wrap(1'b0)) u_group_search (
    .vec_i   (s_after[4] ? '0 : s_mask),
    .start_i (s_after[3:0]),
    .found_o (g_found),
    .idx_o   (g_off)
  );

  always_comb begin
    pend_d      = start_i ? start_part_i : pend_q;
    busy_d      = busy_q;
    grp_d       = grp_q;
    after_d     = after_q;
    wrap_d      = wrap_q;
    sel_valid_d = sel_valid_q;
    sel_d       = sel_q;
    done_d      = 1'b0;
    if (clear_i) begin
      busy_d      = 1'b0;
      sel_valid_d = 1'b0;
    end else if (start_i && !any_part) begin
      busy_d      = 1'b0;
      sel_valid_d = 1'b0;
      done_d      = 1'b1;
    end else if (searching) begin
      busy_d      = 1'b1;
      sel_valid_d = 1'b0;
      if (g_found) begin
        sel_valid_d = 1'b1;
        sel_d       = {s_grp, g_off};
      end else if (s_grp != GrpW'(NumGroups - 1)) begin
        grp_d   = s_grp + 1'b1;
        after_d = '0;
        wrap_d  = s_wrap;
      end else if (s_wrap) begin
        grp_d   = '0;
        after_d = '0;
        wrap_d  = 1'b0;
      end else begin
        busy_d = 1'b0;
        done_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_q      <= '0;
      busy_q      <= 1'b0;
      grp_q       <= '0;
      after_q     <= '0;
      wrap_q      <= 1'b0;
      sel_valid_q <= 1'b0;
      sel_q       <= '0;
      done_q      <= 1'b0;
    end else begin
      pend_q      <= pend_d;
      busy_q      <= busy_d;
      grp_q       <= grp_d;
      after_q     <= after_d;
      wrap_q      <= wrap_d;
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
      assert (!sel_valid_q || busy_q) else $error("thread_select: selected thread outside a search");
      assert (!sel_valid_q || pend_q[sel_q]) else $error("thread_select: selected thread not pending");
      assert (!(start_i && busy_q)) else $error("thread_select: start while a search runs");
      assert (!(start_i && clear_i)) else $error("thread_select: start and clear at once");
      assert (start_from_i <= (TidW + 1)'(MaxThreads) || !start_i)
        else $error("thread_select: start position out of range");
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
