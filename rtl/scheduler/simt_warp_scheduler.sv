// Warp scheduler (seed 000, figure 5A, paragraphs 0067-0071 and 0099).
//
// Each cycle it issues at most one warp whose next instruction may issue. A warp is eligible
// when it is valid, has active threads, has a decoded instruction, is not stalled by an
// exception, has no instruction in flight (one instruction in flight per warp; the retiring
// instruction frees the warp in the same cycle), and passes the barrier scoreboard check of
// [0099].
//
// Barrier scoreboard: each warp keeps a copy of the one barrier-table entry its instruction
// names (CTA, id -> state, tag, late-arrival flag). Copies are filled through one table read
// port (one warp per cycle, round robin) and kept coherent by the barrier unit's update
// stream, so the check costs a tag compare per warp instead of a table mux per warp. A warp
// whose barrier instruction has no valid copy yet waits (one cycle in the common case). The
// updates are registered on entry and applied a cycle later, read through by the check.
//
// Among eligible warps the one with the highest key wins; equal keys are served round-robin
// from the warp after the last issued one. Because only eligible warps compete, a lower
// priority warp issues whenever the best one cannot (the seed's fallback, [0069]).
//
//   policy      key
//   PolOldest   age: cycles since the warp last issued (or became valid), saturating
//   PolProgram  prog_prio_i[w]
//   PolCta      cta_prio_i[cta of w]
//   PolGto      {w is the last issued warp, age}: greedy, then oldest
//   PolLrr      0 for all: pure round robin among eligible warps
//
// Selection is single-cycle: the max-key set (eligible warps no eligible warp's key exceeds,
// from a NumWarps x NumWarps table of key comparisons), then a find-next-set from the
// round-robin pointer.
module simt_warp_scheduler #(
  parameter int NumWarps  = simt_pkg::NumWarps,
  parameter int PrioW     = 6,   // 6 or 10 bits (seed 000 [0068])
  parameter int NumCtas   = simt_pkg::NumCtas,
  parameter int NumBarIds = simt_pkg::NumBarIds,
  parameter int TagW      = 22,  // barrier tag = the barrier instruction's PC
  parameter int NumUpd    = 2,   // barrier-table updates reported per cycle
  localparam int WarpW    = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW     = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int BarIdW   = (NumBarIds > 1) ? $clog2(NumBarIds) : 1,
  localparam int BarW     = CtaW + BarIdW  // table index {CTA, id}
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,

  input  simt_pkg::sched_policy_e     policy_i,

  // Per-warp state
  input  logic [NumWarps-1:0]         warp_valid_i,   // resident and not finished
  input  logic [NumWarps-1:0]         warp_active_i,  // has active threads
  input  logic [NumWarps-1:0]         inst_valid_i,   // next instruction fetched and decoded
  input  logic [NumWarps-1:0]         warp_stall_i,   // stalled by an exception
  input  logic [NumWarps-1:0]         retire_i,       // in-flight instruction completes
  input  logic [NumWarps*CtaW-1:0]    warp_cta_i,
  input  logic [NumWarps*PrioW-1:0]   prog_prio_i,
  input  logic [NumCtas*PrioW-1:0]    cta_prio_i,

  // Barrier scoreboard: the instruction's barrier, and the barrier unit's table
  input  logic [NumWarps-1:0]         inst_bar_i,     // next instruction names a barrier
  input  logic [NumWarps*BarIdW-1:0]  inst_bar_id_i,
  input  logic [NumWarps*TagW-1:0]    inst_tag_i,     // its PC
  output logic                        bar_rd_valid_o, // table read port (combinational answer)
  output logic [BarW-1:0]             bar_rd_idx_o,
  input  logic [1:0]                  bar_rd_state_i, // simt_pkg::bar_state_e
  input  logic [TagW-1:0]             bar_rd_tag_i,
  input  logic                        bar_rd_late_ok_i,
  // Entry bar_upd_idx_i takes these values at the end of this cycle (every change reported).
  input  logic [NumUpd-1:0]           bar_upd_valid_i,
  input  logic [NumUpd*BarW-1:0]      bar_upd_idx_i,
  input  logic [NumUpd*2-1:0]         bar_upd_state_i,
  input  logic [NumUpd*TagW-1:0]      bar_upd_tag_i,
  input  logic [NumUpd-1:0]           bar_upd_late_ok_i,

  // Issue
  input  logic                        issue_ready_i,
  output logic                        issue_valid_o,
  output logic [WarpW-1:0]            issue_warp_o,
  output logic [NumWarps-1:0]         issue_gnt_o,    // one-hot, only when issue fires

  // Status (for the deadlock report and debugging)
  output logic [NumWarps-1:0]         eligible_o,
  output logic [NumWarps-1:0]         bar_wait_o,     // held by the barrier scoreboard
  output logic [NumWarps-1:0]         busy_o          // instruction in flight
);

  localparam int KeyW = PrioW + 1;
  localparam logic [PrioW-1:0] AgeMax = '1;

  logic [NumWarps-1:0]  busy_d, busy_q;
  logic [PrioW-1:0]     age_d [NumWarps];
  logic [PrioW-1:0]     age_q [NumWarps];
  logic [WarpW-1:0]     last_d, last_q;        // last issued warp (GTO)
  logic                 last_valid_d, last_valid_q;
  logic [WarpW-1:0]     rr_ptr_d, rr_ptr_q;    // round-robin start: after the last issued

  // ---------------------------------------------------------------------------------------
  // Barrier scoreboard ([0099]): wait if the barrier id is static/dynamic with another tag,
  // or dynamic with the same tag and not accepting late arrivals.
  // ---------------------------------------------------------------------------------------
  // Per-warp copy of one table entry.
  logic [NumWarps-1:0] cvalid_d, cvalid_q;
  logic [BarW-1:0]     cidx_d [NumWarps];
  logic [BarW-1:0]     cidx_q [NumWarps];
  logic [1:0]          cstate_d [NumWarps];
  logic [1:0]          cstate_q [NumWarps];
  logic [TagW-1:0]     ctag_d [NumWarps];
  logic [TagW-1:0]     ctag_q [NumWarps];
  logic [NumWarps-1:0] clate_d, clate_q;

  logic [PrioW-1:0]    cta_prio_arr [NumCtas];
  for (genvar i = 0; i < NumCtas; i++) begin : g_cta_arr
    assign cta_prio_arr[i] = cta_prio_i[i*PrioW +: PrioW];
  end

  // The barrier unit's updates are registered here and applied a cycle later: the update
  // comes last out of the unit's table (its request, the entry's counts and their compares),
  // and the copies' compare and select behind it were the end of the core's deepest routed
  // path (2026-12-07). A copy with an update pending reads as the update (the entry's value
  // from this cycle on), so the check sees what it saw before: no cycle changes.
  logic [NumUpd-1:0]      upd_valid_q;
  logic [NumUpd*BarW-1:0] upd_idx_q;
  logic [NumUpd*2-1:0]    upd_state_q;
  logic [NumUpd*TagW-1:0] upd_tag_q;
  logic [NumUpd-1:0]      upd_late_q;
  logic [1:0]             cur_state [NumWarps];  // the copy as the entry holds it now
  logic [TagW-1:0]        cur_tag [NumWarps];
  logic [NumWarps-1:0]    cur_late;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      cur_state[w] = cstate_q[w];
      cur_tag[w]   = ctag_q[w];
      cur_late[w]  = clate_q[w];
      for (int u = 0; u < NumUpd; u++) begin
        if (upd_valid_q[u] && cvalid_q[w] && cidx_q[w] == upd_idx_q[u*BarW +: BarW]) begin
          cur_state[w] = upd_state_q[u*2 +: 2];
          cur_tag[w]   = upd_tag_q[u*TagW +: TagW];
          cur_late[w]  = upd_late_q[u];
        end
      end
    end
  end

  logic [BarW-1:0]     bar_idx [NumWarps];  // {CTA, id} named by each warp's instruction
  logic [NumWarps-1:0] bar_hit;             // the warp's copy is of that entry
  logic [NumWarps-1:0] bar_same_tag;
  logic [NumWarps-1:0] bar_block;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      if (NumCtas > 1) begin
        bar_idx[w] = {warp_cta_i[w*CtaW +: CtaW], inst_bar_id_i[w*BarIdW +: BarIdW]};
      end else begin
        bar_idx[w] = BarW'(inst_bar_id_i[w*BarIdW +: BarIdW]);
      end
      bar_hit[w]      = cvalid_q[w] && (cidx_q[w] == bar_idx[w]);
      bar_same_tag[w] = (cur_tag[w] == inst_tag_i[w*TagW +: TagW]);
      // [0099]: wait if static/dynamic with another tag, or dynamic with the same tag and
      // not accepting late arrivals; without a copy yet, wait for the fill.
      bar_block[w]    = inst_bar_i[w] &&
                        (!bar_hit[w] ||
                         (((cur_state[w] == simt_pkg::BarStatic) ||
                           (cur_state[w] == simt_pkg::BarDynamic)) && !bar_same_tag[w]) ||
                         ((cur_state[w] == simt_pkg::BarDynamic) && bar_same_tag[w] &&
                          !cur_late[w]));
    end
  end

  // Fill: one warp whose barrier instruction has no copy reads the table this cycle.
  logic [NumWarps-1:0] fill_req;
  logic                fill_valid;
  logic [NumWarps-1:0] fill_gnt;
  logic [WarpW-1:0]    fill_warp;
  assign fill_req = inst_bar_i & ~bar_hit & warp_valid_i;

  simt_rr_arbiter #(
    .N (NumWarps)
  ) u_fill_arb (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .req_i     (fill_req),
    .ack_i     (1'b1),
    .valid_o   (fill_valid),
    .gnt_o     (fill_gnt),
    .gnt_idx_o (fill_warp)
  );

  assign bar_rd_valid_o = fill_valid;
  assign bar_rd_idx_o   = bar_idx[fill_warp];

  // Copies: the last cycle's updates (cur_*), then the fill, which reads the table as it is
  // now. This cycle's updates wait in upd_*_q, so a copy filled now takes the update to its
  // entry next cycle, as it did when the update was applied after the fill.
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      cvalid_d[w] = cvalid_q[w];
      cidx_d[w]   = cidx_q[w];
      cstate_d[w] = cur_state[w];
      ctag_d[w]   = cur_tag[w];
      clate_d[w]  = cur_late[w];
      if (fill_gnt[w]) begin
        cvalid_d[w] = 1'b1;
        cidx_d[w]   = bar_idx[w];
        cstate_d[w] = bar_rd_state_i;
        ctag_d[w]   = bar_rd_tag_i;
        clate_d[w]  = bar_rd_late_ok_i;
      end
      if (!warp_valid_i[w]) cvalid_d[w] = 1'b0;  // a new warp starts without copies
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      upd_valid_q <= '0;
      upd_idx_q   <= '0;
      upd_state_q <= '0;
      upd_tag_q   <= '0;
      upd_late_q  <= '0;
    end else begin
      upd_valid_q <= bar_upd_valid_i;
      upd_idx_q   <= bar_upd_idx_i;
      upd_state_q <= bar_upd_state_i;
      upd_tag_q   <= bar_upd_tag_i;
      upd_late_q  <= bar_upd_late_ok_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cvalid_q <= '0;
      clate_q  <= '0;
      for (int w = 0; w < NumWarps; w++) begin
        cidx_q[w]   <= '0;
        cstate_q[w] <= '0;
        ctag_q[w]   <= '0;
      end
    end else begin
      cvalid_q <= cvalid_d;
      clate_q  <= clate_d;
      for (int w = 0; w < NumWarps; w++) begin
        cidx_q[w]   <= cidx_d[w];
        cstate_q[w] <= cstate_d[w];
        ctag_q[w]   <= ctag_d[w];
      end
    end
  end

  logic [NumWarps-1:0] eligible;
  assign eligible = warp_valid_i & warp_active_i & inst_valid_i & ~warp_stall_i &
                    (~busy_q | retire_i) & ~bar_block;

  // ---------------------------------------------------------------------------------------
  // Keys and selection
  // ---------------------------------------------------------------------------------------
  logic [KeyW-1:0] key [NumWarps];
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      unique case (policy_i)
        simt_pkg::PolOldest:  key[w] = {1'b0, age_q[w]};
        simt_pkg::PolProgram: key[w] = {1'b0, prog_prio_i[w*PrioW +: PrioW]};
        simt_pkg::PolCta:     key[w] = {1'b0, cta_prio_arr[warp_cta_i[w*CtaW +: CtaW]]};
        simt_pkg::PolGto:     key[w] = {last_valid_q && last_q == WarpW'(w), age_q[w]};
        default:              key[w] = '0;  // PolLrr
      endcase
    end
  end

  // Eligible warps holding the maximum key: those no eligible warp's key exceeds. The key
  // comparisons come from registered state and the configuration, so they settle early; the
  // late eligible vector (retirement, the divergence unit's masks, the scoreboard) meets them
  // only in one NumWarps-wide AND-OR per warp before the round-robin pick (a bit-serial search
  // from the MSB, KeyW dependent levels after eligible, was the core's deepest chain at 8 warps).
  logic [NumWarps-1:0] beats [NumWarps];  // beats[w][v]: key[v] > key[w]
  logic [NumWarps-1:0] best;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      for (int v = 0; v < NumWarps; v++) beats[w][v] = key[v] > key[w];
      best[w] = eligible[w] && (eligible & beats[w]) == '0;
    end
  end

  logic             pick_found;
  logic [WarpW-1:0] pick;

  simt_find_next_set #(
    .N    (NumWarps),
    .Wrap (1'b1)
  ) u_rr_pick (
    .vec_i   (best),
    .start_i (rr_ptr_q),
    .found_o (pick_found),
    .idx_o   (pick)
  );

  logic fire;
  assign issue_valid_o = pick_found;
  assign issue_warp_o  = pick;
  assign fire          = pick_found && issue_ready_i;

  always_comb begin
    issue_gnt_o = '0;
    if (fire) issue_gnt_o[pick] = 1'b1;
  end

  // ---------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------
  always_comb begin
    busy_d       = (busy_q & ~retire_i) | issue_gnt_o;
    last_d       = last_q;
    last_valid_d = last_valid_q;
    rr_ptr_d     = rr_ptr_q;
    // A warp that leaves (finishes) is no longer the greedy choice.
    if (!warp_valid_i[last_q]) last_valid_d = 1'b0;
    if (fire) begin
      last_d       = pick;
      last_valid_d = 1'b1;
      rr_ptr_d     = (pick == WarpW'(NumWarps - 1)) ? '0 : pick + 1'b1;
    end
    for (int w = 0; w < NumWarps; w++) begin
      if (issue_gnt_o[w] || !warp_valid_i[w]) age_d[w] = '0;
      else if (age_q[w] != AgeMax)            age_d[w] = age_q[w] + 1'b1;
      else                                    age_d[w] = age_q[w];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q       <= '0;
      last_q       <= '0;
      last_valid_q <= 1'b0;
      rr_ptr_q     <= '0;
      for (int w = 0; w < NumWarps; w++) age_q[w] <= '0;
    end else begin
      busy_q       <= busy_d;
      last_q       <= last_d;
      last_valid_q <= last_valid_d;
      rr_ptr_q     <= rr_ptr_d;
      for (int w = 0; w < NumWarps; w++) age_q[w] <= age_d[w];
    end
  end

  assign eligible_o = eligible;
  assign bar_wait_o = bar_block;
  assign busy_o     = busy_q;

  // ---------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------
`ifdef VERILATOR
  always_comb begin
    if (rst_ni) begin
      assert ($onehot0(issue_gnt_o)) else $error("warp_scheduler: grant not one-hot");
      assert ((issue_gnt_o & ~eligible) == '0)
        else $error("warp_scheduler: grant to an ineligible warp");
      assert (issue_valid_o == (eligible != '0))
        else $error("warp_scheduler: eligible warps but no issue");
    end
  end
`endif

`ifndef SYNTHESIS
  // Bounded wait (no starvation) under LRR and oldest-first: a warp that stays eligible is
  // issued within a bounded number of issue cycles. Counted in issue cycles (ready high);
  // reset when the warp issues, becomes ineligible, or the policy changes.
  localparam int WaitW = PrioW + WarpW + 2;
  localparam int BoundLrr    = NumWarps - 1;
  localparam int BoundOldest = (1 << PrioW) - 1 + NumWarps - 1;
  logic [WaitW-1:0]          wait_q [NumWarps];
  simt_pkg::sched_policy_e   policy_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      policy_q <= simt_pkg::PolLrr;
      for (int w = 0; w < NumWarps; w++) wait_q[w] <= '0;
    end else begin
      policy_q <= policy_i;
      for (int w = 0; w < NumWarps; w++) begin
        if (policy_i != policy_q || !eligible[w] || issue_gnt_o[w]) wait_q[w] <= '0;
        else if (issue_ready_i && wait_q[w] != '1) wait_q[w] <= wait_q[w] + 1'b1;
      end
    end
  end
`endif

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int w = 0; w < NumWarps; w++) begin
        if (policy_i == policy_q && policy_i == simt_pkg::PolLrr) begin
          assert (int'(wait_q[w]) <= BoundLrr)
            else $error("warp_scheduler: warp %0d starved under LRR", w);
        end
        if (policy_i == policy_q && policy_i == simt_pkg::PolOldest) begin
          assert (int'(wait_q[w]) <= BoundOldest)
            else $error("warp_scheduler: warp %0d starved under oldest-first", w);
        end
      end
    end
  end
`endif

`ifdef FORMAL
  // Round-robin distance from the pointer to warp w (how many warps are served first).
  function automatic logic [WarpW+1:0] rr_dist(logic [WarpW-1:0] ptr, logic [WarpW-1:0] w);
    if (w >= ptr) rr_dist = (WarpW + 2)'(w) - (WarpW + 2)'(ptr);
    else          rr_dist = (WarpW + 2)'(w) + (WarpW + 2)'(NumWarps) - (WarpW + 2)'(ptr);
  endfunction


  always @(posedge clk_i) begin
    if (rst_ni) begin
      // Grant properties.
      assert ((issue_gnt_o & (issue_gnt_o - 1'b1)) == '0);
      assert ((issue_gnt_o & ~eligible) == '0);
      assert (issue_valid_o == (eligible != '0));
      assert (!issue_valid_o || eligible[issue_warp_o]);
      assert ({1'b0, rr_ptr_q} < (WarpW + 1)'(NumWarps));
      // No starvation under LRR: each issue to another warp moves the pointer closer to a
      // waiting warp, so wait + distance never exceeds NumWarps - 1 (inductive form).
      for (int w = 0; w < NumWarps; w++) begin
        if (policy_q == simt_pkg::PolLrr && wait_q[w] != '0) begin
          assert ((WaitW + 1)'(wait_q[w]) + (WaitW + 1)'(rr_dist(rr_ptr_q, WarpW'(w))) <=
                  (WaitW + 1)'(BoundLrr));
        end
      end
    end
  end
`endif

endmodule
