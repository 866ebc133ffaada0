// Barrier state table and thread state table of the barrier unit for conditional barriers
// (seed 000 [0071]-[0100], claims 1-7, 12-16: bar.sync with membership by all non-exited
// threads or a COUNT, impatient portions by MIN or TIMEOUT, late arrivals that pass, tags,
// bar.reset).
//
// One request at a time (req_valid_i/req_ready_o): Launch (a CTA's thread count), Exit
// (threads of a CTA left: the default COUNT shrinks), Arrive (one warp's participants reach
// a barrier) and Reset. Per (CTA, id) entry: busy, tag (the barrier instruction's PC),
// COUNT, impatient MIN/TIMEOUT, pass, whether a portion has started, participants passed and
// waiting, the cycle of the first waiting arrival. Per thread: asleep, and the id it sleeps
// at (the thread state table). When an entry's condition holds, its sleepers are woken one
// warp per cycle as tokens {cta, warp, mask, resume = tag + 1} for the divergence unit,
// which re-activates them through its queue (ARCHITECTURE.md). While idle, one entry per
// cycle is checked for an elapsed TIMEOUT (so a timeout fires within NumCtas*16 idle cycles
// of elapsing). Critical-section barriers are served by simt_barrier_slots and
// simt_thread_select; the unit top that joins them is the next step.
module simt_barrier_table #(
  parameter int NumCtas = 2,
  parameter int Warps   = 8,              // warps per CTA (32 threads each)
  parameter int TagW    = 22,
  parameter int TimeW   = 16,
  localparam int NumIds = 16,
  localparam int NumEnt = NumCtas * NumIds,
  localparam int EntW   = $clog2(NumEnt),
  localparam int CtaW   = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int WarpW  = (Warps > 1) ? $clog2(Warps) : 1,
  localparam int CntW   = 12
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             req_valid_i,
  output logic             req_ready_o,
  input  logic [1:0]       req_op_i,        // 0 launch, 1 exit, 2 arrive, 3 reset
  input  logic [CtaW-1:0]  req_cta_i,
  input  logic [3:0]       req_id_i,
  input  logic [WarpW-1:0] req_warp_i,
  input  logic [31:0]      req_mask_i,      // arrive: participants of the warp
  input  logic [TagW-1:0]  req_tag_i,
  input  logic [CntW-1:0]  req_count_i,     // arrive: COUNT (0: all non-exited threads);
                                            // launch: threads; exit: threads that left
  input  logic             req_imp_i,
  input  logic [CntW-1:0]  req_min_i,
  input  logic [TimeW-1:0] req_timeout_i,
  input  logic             req_pass_i,
  // Answer to an accepted arrive, in the accept cycle.
  output logic             resp_refused_o,  // the id is busy with another tag: retry later
  output logic             resp_pass_o,     // late arrival at a .pass barrier: continue
  // Wake tokens.
  output logic             wake_valid_o,
  input  logic             wake_ready_i,
  output logic [CtaW-1:0]  wake_cta_o,
  output logic [WarpW-1:0] wake_warp_o,
  output logic [31:0]      wake_mask_o,
  output logic [TagW-1:0]  wake_resume_o,
  output logic [NumEnt-1:0] busy_o
);

  localparam logic [1:0] OpLaunch = 2'd0, OpExit = 2'd1, OpArrive = 2'd2, OpReset = 2'd3;
  typedef enum logic [1:0] { StIdle, StCheck, StWake, StScan } state_e;

  // ---- barrier state table ----------------------------------------------------------------
  logic             busy_d [NumEnt], busy_q [NumEnt];
  logic [TagW-1:0]  tag_d [NumEnt], tag_q [NumEnt];
  logic [CntW-1:0]  count_d [NumEnt], count_q [NumEnt];
  logic             imp_d [NumEnt], imp_q [NumEnt];
  logic             pass_d [NumEnt], pass_q [NumEnt];
  logic [CntW-1:0]  min_d [NumEnt], min_q [NumEnt];
  logic [TimeW-1:0] tmo_d [NumEnt], tmo_q [NumEnt];
  logic             started_d [NumEnt], started_q [NumEnt];
  logic [CntW-1:0]  passed_d [NumEnt], passed_q [NumEnt];
  logic [CntW-1:0]  waiting_d [NumEnt], waiting_q [NumEnt];
  logic [TimeW-1:0] tfirst_d [NumEnt], tfirst_q [NumEnt];
  logic [CntW-1:0]  nonex_d [NumCtas], nonex_q [NumCtas];

  // ---- thread state table: asleep, and at which id ---------------------------------------
  logic [31:0]      sleep_d [NumCtas * Warps], sleep_q [NumCtas * Warps];
  logic [127:0]     wid_d [NumCtas * Warps], wid_q [NumCtas * Warps];

  // ---- control -----------------------------------------------------------------------------
  state_e           st_d, st_q;
  logic [EntW-1:0]  ent_d, ent_q;          // entry being checked or woken
  logic [WarpW-1:0] w_d, w_q;              // warp being woken
  logic             clear_d, clear_q;      // the wake is a reset: the entry goes idle
  logic             scan_d, scan_q;        // checking every entry of a CTA (after an exit)
  logic [EntW-1:0]  tptr_d, tptr_q;        // timeout scan pointer
  logic [TimeW-1:0] now_q;

  function automatic logic [CntW-1:0] popcnt(logic [31:0] m);
    popcnt = '0;
    for (int i = 0; i < 32; i++) popcnt = popcnt + CntW'(m[i]);
  endfunction

  // Whether entry e's portion starts now (the seed's membership and impatience conditions).
  function automatic logic fires(logic [EntW-1:0] e, logic [CntW-1:0] nonex);
    logic [CntW-1:0]  expected;
    logic [TimeW-1:0] elapsed;
    expected = (count_q[e] != '0) ? count_q[e] : nonex;
    elapsed  = now_q - tfirst_q[e];
    fires = busy_q[e] && (waiting_q[e] != '0) &&
            ((passed_q[e] + waiting_q[e] >= expected) ||
             (imp_q[e] && min_q[e] != '0 && waiting_q[e] >= min_q[e]) ||
             (imp_q[e] && tmo_q[e] != '0 && elapsed >= tmo_q[e]));
  endfunction

  function automatic logic done_now(logic [EntW-1:0] e, logic [CntW-1:0] nonex);
    done_now = busy_q[e] && (waiting_q[e] == '0) &&
               (passed_q[e] >= ((count_q[e] != '0) ? count_q[e] : nonex));
  endfunction

  logic [EntW-1:0]  req_ent;
  logic [CtaW-1:0]  ent_cta;
  logic [3:0]       ent_id;
  logic [CtaW+WarpW-1:0] wk_idx;
  logic [31:0]      wk_mask;
  logic             accept;

  assign req_ent     = EntW'({req_cta_i, req_id_i});
  assign ent_cta     = CtaW'(ent_q >> 4);
  assign ent_id      = ent_q[3:0];
  assign wk_idx      = {ent_cta, w_q};
  assign req_ready_o = (st_q == StIdle);
  assign accept      = req_valid_i && req_ready_o;

  // The sleepers of the entry in the warp being woken.
  always_comb begin
    for (int t = 0; t < 32; t++) begin
      wk_mask[t] = sleep_q[wk_idx][t] && (wid_q[wk_idx][t*4 +: 4] == ent_id);
    end
  end

  assign wake_valid_o  = (st_q == StWake) && (wk_mask != '0);
  assign wake_cta_o    = ent_cta;
  assign wake_warp_o   = w_q;
  assign wake_mask_o   = wk_mask;
  assign wake_resume_o = tag_q[ent_q] + 1'b1;

  always_comb begin
    for (int e = 0; e < NumEnt; e++) begin
      busy_d[e]    = busy_q[e];
      tag_d[e]     = tag_q[e];
      count_d[e]   = count_q[e];
      imp_d[e]     = imp_q[e];
      pass_d[e]    = pass_q[e];
      min_d[e]     = min_q[e];
      tmo_d[e]     = tmo_q[e];
      started_d[e] = started_q[e];
      passed_d[e]  = passed_q[e];
      waiting_d[e] = waiting_q[e];
      tfirst_d[e]  = tfirst_q[e];
    end
    for (int c = 0; c < NumCtas; c++) nonex_d[c] = nonex_q[c];
    for (int i = 0; i < NumCtas * Warps; i++) begin
      sleep_d[i] = sleep_q[i];
      wid_d[i]   = wid_q[i];
    end
    st_d           = st_q;
    ent_d          = ent_q;
    w_d            = w_q;
    clear_d        = clear_q;
    scan_d         = scan_q;
    tptr_d         = tptr_q;
    resp_refused_o = 1'b0;
    resp_pass_o    = 1'b0;

    unique case (st_q)
      StIdle: begin
        if (accept) begin
          ent_d = req_ent;
          unique case (req_op_i)
            OpLaunch: nonex_d[req_cta_i] = req_count_i;
            OpExit: begin
              nonex_d[req_cta_i] = nonex_q[req_cta_i] - req_count_i;
              ent_d  = EntW'({req_cta_i, 4'd0});
              scan_d = 1'b1;
              st_d   = StScan;
            end
            OpReset: begin
              if (busy_q[req_ent]) begin
                w_d     = '0;
                clear_d = 1'b1;
                st_d    = StWake;
              end
            end
            default: begin  // OpArrive
              if (busy_q[req_ent] && tag_q[req_ent] != req_tag_i) begin
                resp_refused_o = 1'b1;
              end else begin
                if (!busy_q[req_ent]) begin
                  busy_d[req_ent]    = 1'b1;
                  tag_d[req_ent]     = req_tag_i;
                  count_d[req_ent]   = req_count_i;
                  imp_d[req_ent]     = req_imp_i;
                  pass_d[req_ent]    = req_pass_i;
                  min_d[req_ent]     = req_min_i;
                  tmo_d[req_ent]     = req_timeout_i;
                  started_d[req_ent] = 1'b0;
                  passed_d[req_ent]  = '0;
                  waiting_d[req_ent] = '0;
                end
                if (busy_q[req_ent] && imp_q[req_ent] && pass_q[req_ent] && started_q[req_ent]) begin
                  // Invalidation: a late arrival at a .pass barrier continues at once.
                  resp_pass_o       = (req_mask_i != '0);
                  passed_d[req_ent] = passed_q[req_ent] + popcnt(req_mask_i);
                end else if (req_mask_i != '0) begin
                  if (!busy_q[req_ent] || waiting_q[req_ent] == '0) tfirst_d[req_ent] = now_q;
                  waiting_d[req_ent] = (busy_q[req_ent] ? waiting_q[req_ent] : '0) +
                                       popcnt(req_mask_i);
                  sleep_d[{req_cta_i, req_warp_i}] = sleep_q[{req_cta_i, req_warp_i}] | req_mask_i;
                  for (int t = 0; t < 32; t++) begin
                    if (req_mask_i[t]) wid_d[{req_cta_i, req_warp_i}][t*4 +: 4] = req_id_i;
                  end
                end
                st_d = StCheck;
              end
            end
          endcase
        end else begin
          // Idle: look at one entry per cycle for a condition that holds (timeouts).
          tptr_d = (tptr_q == EntW'(NumEnt - 1)) ? '0 : tptr_q + 1'b1;
          if (fires(tptr_q, nonex_q[CtaW'(tptr_q >> 4)])) begin
            ent_d   = tptr_q;
            w_d     = '0;
            clear_d = 1'b0;
            st_d    = StWake;
          end
        end
      end

      StCheck, StScan: begin
        if (fires(ent_q, nonex_q[ent_cta])) begin
          w_d     = '0;
          clear_d = 1'b0;
          st_d    = StWake;
        end else begin
          if (done_now(ent_q, nonex_q[ent_cta])) busy_d[ent_q] = 1'b0;
          if (st_q == StScan && ent_id != 4'd15) begin
            ent_d = ent_q + 1'b1;
          end else begin
            scan_d = 1'b0;
            st_d   = StIdle;
          end
        end
      end

      StWake: begin
        // One warp per cycle; a token waits for wake_ready_i.
        if (!wake_valid_o || wake_ready_i) begin
          sleep_d[wk_idx] = sleep_q[wk_idx] & ~wk_mask;
          if (w_q != WarpW'(Warps - 1)) begin
            w_d = w_q + 1'b1;
          end else begin
            if (clear_q) begin
              busy_d[ent_q] = 1'b0;
            end else begin
              started_d[ent_q] = 1'b1;
              passed_d[ent_q]  = passed_q[ent_q] + waiting_q[ent_q];
              if (passed_q[ent_q] + waiting_q[ent_q] >=
                  ((count_q[ent_q] != '0) ? count_q[ent_q] : nonex_q[ent_cta])) begin
                busy_d[ent_q] = 1'b0;
              end
            end
            waiting_d[ent_q] = '0;
            clear_d          = 1'b0;
            if (scan_q && ent_id != 4'd15) begin
              ent_d = ent_q + 1'b1;
              st_d  = StScan;
            end else begin
              scan_d = 1'b0;
              st_d   = StIdle;
            end
          end
        end
      end

      default: st_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int e = 0; e < NumEnt; e++) begin
        busy_q[e]    <= 1'b0;
        tag_q[e]     <= '0;
        count_q[e]   <= '0;
        imp_q[e]     <= 1'b0;
        pass_q[e]    <= 1'b0;
        min_q[e]     <= '0;
        tmo_q[e]     <= '0;
        started_q[e] <= 1'b0;
        passed_q[e]  <= '0;
        waiting_q[e] <= '0;
        tfirst_q[e]  <= '0;
      end
      for (int c = 0; c < NumCtas; c++) nonex_q[c] <= '0;
      for (int i = 0; i < NumCtas * Warps; i++) begin
        sleep_q[i] <= '0;
        wid_q[i]   <= '0;
      end
      st_q    <= StIdle;
      ent_q   <= '0;
      w_q     <= '0;
      clear_q <= 1'b0;
      scan_q  <= 1'b0;
      tptr_q  <= '0;
      now_q   <= '0;
    end else begin
      for (int e = 0; e < NumEnt; e++) begin
        busy_q[e]    <= busy_d[e];
        tag_q[e]     <= tag_d[e];
        count_q[e]   <= count_d[e];
        imp_q[e]     <= imp_d[e];
        pass_q[e]    <= pass_d[e];
        min_q[e]     <= min_d[e];
        tmo_q[e]     <= tmo_d[e];
        started_q[e] <= started_d[e];
        passed_q[e]  <= passed_d[e];
        waiting_q[e] <= waiting_d[e];
        tfirst_q[e]  <= tfirst_d[e];
      end
      for (int c = 0; c < NumCtas; c++) nonex_q[c] <= nonex_d[c];
      for (int i = 0; i < NumCtas * Warps; i++) begin
        sleep_q[i] <= sleep_d[i];
        wid_q[i]   <= wid_d[i];
      end
      st_q    <= st_d;
      ent_q   <= ent_d;
      w_q     <= w_d;
      clear_q <= clear_d;
      scan_q  <= scan_d;
      tptr_q  <= tptr_d;
      now_q   <= now_q + 1'b1;
    end
  end

  always_comb begin
    for (int e = 0; e < NumEnt; e++) busy_o[e] = busy_q[e];
  end

`ifdef VERILATOR
  // A thread asleep in the table is never asked to sleep again; waiting counts never exceed
  // the threads of a CTA; an idle entry has nobody waiting.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (accept && req_op_i == OpArrive && !resp_refused_o && !resp_pass_o) begin
        assert ((sleep_q[{req_cta_i, req_warp_i}] & req_mask_i) == '0)
          else $error("barrier_table: a sleeping thread arrived again");
      end
      for (int e = 0; e < NumEnt; e++) begin
        assert (busy_q[e] || waiting_q[e] == '0) else $error("barrier_table: idle entry with waiters");
        assert (waiting_q[e] <= CntW'(Warps * 32)) else $error("barrier_table: waiting overflow");
      end
      assert (!wake_valid_o || st_q == StWake) else $error("barrier_table: wake outside StWake");
    end
  end
`endif

`ifdef FORMAL
  // Table bookkeeping: an idle entry has no waiters, and the FSM is in a legal state.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      for (int e = 0; e < NumEnt; e++) assert (busy_q[e] || waiting_q[e] == '0);
      assert (st_q == StIdle || st_q == StCheck || st_q == StWake || st_q == StScan);
      assert (!wake_valid_o || st_q == StWake);
    end
  end
`endif

endmodule
