// Warp scheduler (seed 000, figure 5A, paragraphs 0067-0071 and 0099).
//
// Each cycle it issues at most one warp whose next instruction may issue. A warp is eligible
// when it is valid, has active threads, has a decoded instruction, is not stalled by an
// exception, has no instruction in flight (one instruction in flight per warp; the retiring
// instruction frees the warp in the same cycle), and passes the barrier scoreboard check of
// [0099].
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
// Selection is single-cycle: the max-key set is found bit-serially from the MSB (KeyW levels
// of NumWarps-wide AND/OR), then a find-next-set from the round-robin pointer.
module simt_warp_scheduler #(
  parameter int NumWarps  = simt_pkg::NumWarps,
  parameter int PrioW     = 6,   // 6 or 10 bits (seed 000 [0068])
  parameter int NumCtas   = simt_pkg::NumCtas,
  parameter int NumBarIds = simt_pkg::NumBarIds,
  parameter int TagW      = 22,  // barrier tag = the barrier instruction's PC
  localparam int WarpW    = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW     = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int BarIdW   = (NumBarIds > 1) ? $clog2(NumBarIds) : 1,
  localparam int NumBars  = NumCtas * NumBarIds
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

  // Barrier scoreboard: the instruction's barrier, and the barrier state table
  input  logic [NumWarps-1:0]         inst_bar_i,     // next instruction names a barrier
  input  logic [NumWarps*BarIdW-1:0]  inst_bar_id_i,
  input  logic [NumWarps*TagW-1:0]    inst_tag_i,     // its PC
  input  logic [NumBars*2-1:0]        bar_state_i,    // simt_pkg::bar_state_e per (CTA, id)
  input  logic [NumBars*TagW-1:0]     bar_tag_i,
  input  logic [NumBars-1:0]          bar_late_ok_i,  // a dynamic barrier accepts late arrivals

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
  // Flat ports as arrays: indexing an array builds a mux; a variable part-select of a wide
  // vector would build a barrel shifter ten times larger.
  logic [1:0]      bar_state_arr [NumBars];
  logic [TagW-1:0] bar_tag_arr [NumBars];
  logic [PrioW-1:0] cta_prio_arr [NumCtas];
  for (genvar i = 0; i < NumBars; i++) begin : g_bar_arr
    assign bar_state_arr[i] = bar_state_i[i*2 +: 2];
    assign bar_tag_arr[i]   = bar_tag_i[i*TagW +: TagW];
  end
  for (genvar i = 0; i < NumCtas; i++) begin : g_cta_arr
    assign cta_prio_arr[i] = cta_prio_i[i*PrioW +: PrioW];
  end

  logic [NumWarps-1:0]     bar_block;
  logic [CtaW+BarIdW-1:0]  bar_idx [NumWarps];  // (CTA, id) of each warp's barrier
  logic [1:0]              bar_st [NumWarps];
  logic [NumWarps-1:0]     bar_same_tag;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      if (NumCtas > 1) begin
        bar_idx[w] = {warp_cta_i[w*CtaW +: CtaW], inst_bar_id_i[w*BarIdW +: BarIdW]};
      end else begin
        bar_idx[w] = (CtaW + BarIdW)'(inst_bar_id_i[w*BarIdW +: BarIdW]);
      end
      bar_st[w]       = bar_state_arr[bar_idx[w]];
      bar_same_tag[w] = (bar_tag_arr[bar_idx[w]] == inst_tag_i[w*TagW +: TagW]);
      bar_block[w]    = inst_bar_i[w] &&
                        (((bar_st[w] == simt_pkg::BarStatic ||
                           bar_st[w] == simt_pkg::BarDynamic) && !bar_same_tag[w]) ||
                         (bar_st[w] == simt_pkg::BarDynamic && bar_same_tag[w] &&
                          !bar_late_ok_i[bar_idx[w]]));
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

  // Eligible warps holding the maximum key, found bit by bit from the MSB.
  logic [NumWarps-1:0] best;
  logic [NumWarps-1:0] with_bit;
  always_comb begin
    with_bit = '0;
    best = eligible;
    for (int b = KeyW - 1; b >= 0; b--) begin
      for (int w = 0; w < NumWarps; w++) with_bit[w] = best[w] && key[w][b];
      if (with_bit != '0) best = with_bit;
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
