// Barrier state table and thread state table of the barrier unit (seed 000 [0071]-[0123],
// claims 1-33): conditional barriers (bar.sync with membership by all non-exited threads or a
// COUNT, impatient portions by MIN or TIMEOUT, late arrivals that pass or join, tags,
// bar.reset) and the bookkeeping of critical sections, whose portions it hands to
// simt_barrier_slots and simt_thread_select (joined by simt_barrier_unit).
//
// One request at a time (req_valid_i/req_ready_o): Launch (a CTA's thread count), Exit
// (threads of a CTA left: the default COUNT shrinks), Arrive (one warp's participants reach
// a barrier), Reset and Bottom (a warp reaches bar.bot: the thread in the section finishes). Per (CTA, id) entry: busy, tag (the barrier instruction's PC),
// COUNT, impatient MIN/TIMEOUT, pass, whether a portion has started, participants passed and
// waiting, the cycle of the first waiting arrival. Per thread: asleep, and the id it sleeps
// at (the thread state table). When an entry's condition holds, its sleepers are woken one
// warp per cycle as tokens {cta, warp, mask, resume = tag + 1} for the divergence unit,
// which re-activates them through its queue (ARCHITECTURE.md). While idle, one entry per
// cycle is checked for an elapsed TIMEOUT (so a timeout fires within NumCtas*16 idle cycles
// of elapsing), and a barrier static (arrivals waiting) longer than static_limit_i is flagged.
//
// Critical sections: when a section's portion may start, its waiting threads become queued
// members (thread state) and the entry goes to the slots' ready FIFO. A slot grant
// starts the thread select with the queued members; each thread it selects gets a one-thread
// wake token; its bottom retires it (a blocking bottom puts it to sleep with the bottom's
// resume address); when the thread select is done the bottom sleepers wake and the slot is
// released. One section is in service at a time. An entry has at most one item in the FIFO
// or the slots: a grant serves the portion the entry has waiting then, or, if a reset dropped
// it meanwhile, releases the slot unserved (stale); a portion that fires while the entry's
// item still queues (after a reset) is served by that item.
module simt_barrier_table #(
  parameter int NumCtas = 2,
  parameter int Warps   = 8,              // warps per CTA (32 threads each)
  parameter int TagW    = 22,
  parameter int TimeW   = 16,
  parameter int SlotW   = 4,
  parameter int CntW    = 12,             // thread counts (COUNT, MIN, waiting, passed)
  localparam int NumIds = 16,
  localparam int NumEnt = NumCtas * NumIds,
  localparam int EntW   = $clog2(NumEnt),
  localparam int CtaW   = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int WarpW  = (Warps > 1) ? $clog2(Warps) : 1,
  localparam int BarW   = EntW,
  localparam int Thr    = Warps * 32,
  localparam int TidW   = $clog2(Thr)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             req_valid_i,
  output logic             req_ready_o,
  input  logic [2:0]       req_op_i,        // 0 launch, 1 exit, 2 arrive, 3 reset, 4 bottom
  input  logic [CtaW-1:0]  req_cta_i,
  input  logic [3:0]       req_id_i,
  input  logic [WarpW-1:0] req_warp_i,
  input  logic [31:0]      req_mask_i,      // arrive: participants of the warp
  input  logic [TagW-1:0]  req_tag_i,       // the instruction's PC (bottom: its resume - 1)
  input  logic [1:0]       req_kind_i,      // arrive: 0 bar.sync, 1 ordered, 2 unordered CS
  input  logic             req_excl_i,      // arrive: exclusive section (.ex)
  input  logic             req_nb_i,        // bottom: non-blocking
  input  logic [CntW-1:0]  req_count_i,     // arrive: COUNT (0: all non-exited threads);
                                            // launch: threads; exit: threads that left
  input  logic             req_imp_i,
  input  logic [CntW-1:0]  req_min_i,
  input  logic [TimeW-1:0] req_timeout_i,
  input  logic             req_pass_i,
  input  logic             req_nonpart_i,   // arrive: the warp has non-participating arrivals
  // Answer to an accepted arrive, in the accept cycle.
  output logic             resp_refused_o,  // the id is busy with another tag: retry later
  output logic             resp_pass_o,     // late arrival at a .pass barrier: continue
  output logic             resp_sleep_o,    // bottom: the thread in the section sleeps
  // Wake tokens.
  output logic             wake_valid_o,
  input  logic             wake_ready_i,
  output logic [CtaW-1:0]  wake_cta_o,
  output logic [WarpW-1:0] wake_warp_o,
  output logic [31:0]      wake_mask_o,
  output logic [TagW-1:0]  wake_resume_o,
  // Critical sections: the slots' ready FIFO, the slot grant and release.
  output logic             rdy_valid_o,
  input  logic             rdy_ready_i,
  output logic [BarW-1:0]  rdy_bar_o,       // the entry
  output logic             rdy_excl_o,
  input  logic             grant_valid_i,
  input  logic             fifo_moving_i,   // a FIFO head enters a slot: grant after it
  input  logic [SlotW-1:0] grant_slot_i,
  input  logic [BarW-1:0]  grant_bar_i,
  output logic             grant_take_o,
  output logic             rel_valid_o,
  output logic [SlotW-1:0] rel_slot_o,
  // Critical sections: the thread select (logical id = warp * 32 + lane within the CTA).
  output logic             ts_start_o,
  output logic [Thr-1:0]   ts_part_o,
  output logic             ts_join_o,
  output logic [TidW-1:0]  ts_join_tid_o,
  output logic             ts_next_o,
  output logic             ts_abort_o,
  input  logic             ts_busy_i,
  input  logic             ts_sel_valid_i,
  input  logic [TidW-1:0]  ts_sel_tid_i,
  input  logic             ts_done_i,
  // Configuration: where an impatient TIMEOUT is measured from (seed 000 [0085]): 0 the first
  // participating arrival (ISA.md), 1 the first arrival of any thread, 2 the latest
  // participating arrival, 3 the latest arrival of any thread.
  input  logic [1:0]       cfg_tmo_origin_i,
  // Status.
  input  logic [TimeW-1:0] static_limit_i,  // 0: off
  output logic [NumEnt-1:0] static_long_o,  // arrivals waiting longer than the limit
  output logic [NumEnt-1:0] busy_o,
  // A portion starts because its TIMEOUT elapsed (neither COUNT nor MIN holds): the cycle
  // is the unit's choice (scan order), which co-simulation hands to the model.
  output logic             tmo_fire_o,
  output logic [EntW-1:0]  tmo_fire_ent_o
);

  localparam logic [2:0] OpLaunch = 3'd0, OpExit = 3'd1, OpArrive = 3'd2, OpReset = 3'd3,
                         OpBottom = 3'd4;
  localparam logic [1:0] KindSync = 2'd0;
  // What a wake pass wakes: a simple portion's sleepers, a finished section's bottom sleepers,
  // and for a reset the top sleepers (waiting or queued), then the bottom sleepers.
  localparam logic [1:0] WkTop = 2'd0, WkBot = 2'd1, WkRstTop = 2'd2, WkRstBot = 2'd3;
  typedef enum logic [2:0] { StIdle, StCheck, StWake, StScan, StQueue, StJoin } state_e;

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
  logic [TimeW-1:0] tfirst_d [NumEnt], tfirst_q [NumEnt];  // timeout origin of the group
  logic             tset_d [NumEnt], tset_q [NumEnt];      // ... set (for tag_q if idle)
  logic [CntW-1:0]  nonex_d [NumCtas], nonex_q [NumCtas];
  logic [1:0]       kind_d [NumEnt], kind_q [NumEnt];
  logic             excl_d [NumEnt], excl_q [NumEnt];
  logic             secact_d [NumEnt], secact_q [NumEnt];  // section portion fixed, not done
  logic             sq_d [NumEnt], sq_q [NumEnt];          // ... queued for a slot grant
  logic             inq_d [NumEnt], inq_q [NumEnt];        // an item in the FIFO or a slot
  logic [TagW-1:0]  botpc_d [NumEnt], botpc_q [NumEnt];    // blocking bottom's PC
  logic [NumEnt-1:0] stat_d, stat_q;                        // static longer than the limit

  // ---- thread state table: asleep, queued in a section, asleep at a bottom; the id ---------
  logic [31:0]      sleep_d [NumCtas * Warps], sleep_q [NumCtas * Warps];
  logic [31:0]      qd_d [NumCtas * Warps], qd_q [NumCtas * Warps];
  logic [31:0]      bot_d [NumCtas * Warps], bot_q [NumCtas * Warps];
  logic [127:0]     wid_d [NumCtas * Warps], wid_q [NumCtas * Warps];

  // ---- control -----------------------------------------------------------------------------
  state_e           st_d, st_q;
  logic [EntW-1:0]  ent_d, ent_q;          // entry being checked or woken
  logic [WarpW-1:0] w_d, w_q;              // warp being woken
  logic             scan_d, scan_q;        // checking every entry of a CTA (after an exit)
  logic [EntW-1:0]  tptr_d, tptr_q;        // timeout scan pointer
  logic [TimeW-1:0] now_q;
  logic [1:0]       wmode_d, wmode_q;      // what the wake pass wakes
  logic [31:0]      jmask_d, jmask_q;      // late joiners still to hand to the thread select
  // The section in service: its entry and slot, the selected thread woken, done pending.
  logic             svc_d, svc_q;
  logic             stale_d, stale_q;      // the grant was stale: release the slot
  logic [EntW-1:0]  svc_ent_d, svc_ent_q;
  logic [SlotW-1:0] svc_slot_d, svc_slot_q;
  logic             woke_d, woke_q;
  logic             done_d, done_q;
  logic             run_d, run_q;          // the thread select serves a started portion

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
    fires = busy_q[e] && !secact_q[e] && (waiting_q[e] != '0) &&
            ((passed_q[e] + waiting_q[e] >= expected) ||
             (imp_q[e] && min_q[e] != '0 && waiting_q[e] >= min_q[e]) ||
             (imp_q[e] && tmo_q[e] != '0 && elapsed >= tmo_q[e]));
  endfunction

  // The same condition without the TIMEOUT term.
  function automatic logic fires_early(logic [EntW-1:0] e, logic [CntW-1:0] nonex);
    fires_early = busy_q[e] && !secact_q[e] && (waiting_q[e] != '0) &&
                  ((passed_q[e] + waiting_q[e] >= ((count_q[e] != '0) ? count_q[e] : nonex)) ||
                   (imp_q[e] && min_q[e] != '0 && waiting_q[e] >= min_q[e]));
  endfunction

  function automatic logic done_now(logic [EntW-1:0] e, logic [CntW-1:0] nonex);
    done_now = busy_q[e] && !secact_q[e] && (waiting_q[e] == '0) &&
               (passed_q[e] >= ((count_q[e] != '0) ? count_q[e] : nonex));
  endfunction

  // The exit scan visits only busy ids (an idle id neither fires nor completes): the first
  // busy id of the exiting CTA, and the next busy id after the one being checked.
  logic       exit_found, next_found;
  logic [3:0] exit_id, next_id;
  always_comb begin
    exit_found = 1'b0;
    exit_id    = '0;
    next_found = 1'b0;
    next_id    = '0;
    for (int i = NumIds - 1; i >= 0; i--) begin
      if (busy_q[EntW'({req_cta_i, 4'(i)})]) begin
        exit_found = 1'b1;
        exit_id    = 4'(i);
      end
      if (busy_q[EntW'({ent_cta, 4'(i)})] && 4'(i) > ent_id) begin
        next_found = 1'b1;
        next_id    = 4'(i);
      end
    end
  end

  logic             tmo_any, tmo_latest;  // origin: any thread's arrival; the latest one
  assign tmo_any    = cfg_tmo_origin_i[0];
  assign tmo_latest = cfg_tmo_origin_i[1];

  logic [EntW-1:0]  req_ent;
  logic [CtaW-1:0]  ent_cta;
  logic [3:0]       ent_id;
  logic [CtaW+WarpW-1:0] wk_idx;
  logic [31:0]      wk_mask;
  logic [TagW-1:0]  wk_resume;
  logic             accept;
  logic             stable;        // no section search or wake in flight: requests may enter
  logic             cs_wake;       // the selected section thread's wake token
  logic [CtaW-1:0]  svc_cta;
  logic [WarpW-1:0] sel_warp;
  logic [4:0]       sel_lane;
  logic [CtaW+WarpW-1:0] sel_idx;
  logic [EntW-1:0]  g_ent;
  logic [CtaW-1:0]  g_cta;
  logic             g_stale;
  logic             bot_hit;
  logic [4:0]       j_lane;
  logic             j_any;

  assign req_ent  = EntW'({req_cta_i, req_id_i});
  assign ent_cta  = CtaW'(ent_q >> 4);
  assign ent_id   = ent_q[3:0];
  assign wk_idx   = {ent_cta, w_q};
  assign svc_cta  = CtaW'(svc_ent_q >> 4);
  assign sel_warp = WarpW'(ts_sel_tid_i >> 5);
  assign sel_lane = ts_sel_tid_i[4:0];
  assign sel_idx  = {svc_cta, sel_warp};
  assign g_ent    = grant_bar_i[EntW-1:0];
  assign g_cta    = CtaW'(g_ent >> 4);
  assign g_stale  = !sq_q[g_ent];

  // Requests enter only while the section in service (if any) has its thread awake, and, with
  // no section in service, not while a slot grant is due: a request then meets the unit in the
  // state the model sees after each transaction.
  assign stable      = !done_q && !stale_q &&
                       (svc_q ? (ts_sel_valid_i && woke_q) : !(grant_valid_i || fifo_moving_i));
  assign req_ready_o = (st_q == StIdle) && stable;
  assign accept      = req_valid_i && req_ready_o;
  assign cs_wake     = (st_q == StIdle) && svc_q && !stale_q && !done_q && ts_sel_valid_i &&
                       !woke_q;
  // The grant waits while the FIFO still moves heads into free slots, so it chooses among
  // every section that can hold a slot (the rule the model follows, independent of timing).
  assign grant_take_o = grant_valid_i && !fifo_moving_i && (st_q == StIdle) && !svc_q &&
                        !done_q && !ts_busy_i;
  assign bot_hit     = svc_q && !stale_q && (svc_ent_q == req_ent) && ts_sel_valid_i &&
                       woke_q && (sel_warp == req_warp_i) && req_mask_i[sel_lane];

  // The threads of the entry being woken, in the warp being woken, for this wake pass.
  always_comb begin
    for (int t = 0; t < 32; t++) begin
      wk_mask[t] = sleep_q[wk_idx][t] && (wid_q[wk_idx][t*4 +: 4] == ent_id);
      unique case (wmode_q)
        WkTop:    wk_mask[t] = wk_mask[t] && !qd_q[wk_idx][t] && !bot_q[wk_idx][t];
        WkRstTop: wk_mask[t] = wk_mask[t] && !bot_q[wk_idx][t];
        default:  wk_mask[t] = wk_mask[t] && bot_q[wk_idx][t];
      endcase
    end
    wk_resume = ((wmode_q == WkBot || wmode_q == WkRstBot) ? botpc_q[ent_q] : tag_q[ent_q])
                + 1'b1;
  end

  // The queued members of the granted section: the thread select's participants.
  always_comb begin
    for (int w = 0; w < Warps; w++) begin
      for (int t = 0; t < 32; t++) begin
        ts_part_o[w*32 + t] = qd_q[{g_cta, WarpW'(w)}][t] &&
                              (wid_q[{g_cta, WarpW'(w)}][t*4 +: 4] == g_ent[3:0]);
      end
    end
  end

  always_comb begin
    wake_valid_o  = 1'b0;
    wake_cta_o    = ent_cta;
    wake_warp_o   = w_q;
    wake_mask_o   = wk_mask;
    wake_resume_o = wk_resume;
    if (cs_wake) begin
      wake_valid_o  = 1'b1;
      wake_cta_o    = svc_cta;
      wake_warp_o   = sel_warp;
      wake_mask_o   = 32'd1 << sel_lane;
      wake_resume_o = tag_q[svc_ent_q] + 1'b1;
    end else if (st_q == StWake) begin
      wake_valid_o = (wk_mask != '0);
    end
  end

  assign rdy_valid_o   = (st_q == StQueue);
  assign rdy_bar_o     = ent_q;
  assign rdy_excl_o    = excl_q[ent_q];
  assign ts_join_tid_o = TidW'({w_q, j_lane});

  // The next late joiner to hand to the thread select: the lowest pending lane.
  simt_find_next_set #(.N(32), .Wrap(1'b0)) u_join_pick (
    .vec_i   (jmask_q),
    .start_i (5'd0),
    .found_o (j_any),
    .idx_o   (j_lane)
  );

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
      tset_d[e]    = tset_q[e];
      kind_d[e]    = kind_q[e];
      excl_d[e]    = excl_q[e];
      secact_d[e]  = secact_q[e];
      sq_d[e]      = sq_q[e];
      inq_d[e]     = inq_q[e];
      botpc_d[e]   = botpc_q[e];
    end
    stat_d = stat_q;
    for (int c = 0; c < NumCtas; c++) nonex_d[c] = nonex_q[c];
    for (int i = 0; i < NumCtas * Warps; i++) begin
      sleep_d[i] = sleep_q[i];
      qd_d[i]    = qd_q[i];
      bot_d[i]   = bot_q[i];
      wid_d[i]   = wid_q[i];
    end
    st_d           = st_q;
    ent_d          = ent_q;
    w_d            = w_q;
    scan_d         = scan_q;
    tptr_d         = tptr_q;
    wmode_d        = wmode_q;
    jmask_d        = jmask_q;
    svc_d          = svc_q;
    stale_d        = stale_q;
    svc_ent_d      = svc_ent_q;
    svc_slot_d     = svc_slot_q;
    woke_d         = woke_q;
    done_d         = done_q || (ts_done_i && run_q);
    run_d          = run_q && !ts_done_i;
    resp_refused_o = 1'b0;
    resp_pass_o    = 1'b0;
    resp_sleep_o   = 1'b0;
    ts_start_o     = 1'b0;
    ts_join_o      = 1'b0;
    ts_next_o      = 1'b0;
    ts_abort_o     = 1'b0;
    rel_valid_o    = 1'b0;
    rel_slot_o     = svc_slot_q;

    // A slot grant: start the thread select with the section's queued members, or release a
    // stale slot (its barrier was reset while it queued) the next cycle.
    if (grant_take_o) begin
      svc_d      = 1'b1;
      svc_slot_d = grant_slot_i;
      svc_ent_d  = g_ent;
      woke_d     = 1'b0;
      stale_d    = g_stale;
      inq_d[g_ent] = 1'b0;
      if (!g_stale) begin
        ts_start_o   = 1'b1;
        run_d        = 1'b1;
        sq_d[g_ent]  = 1'b0;
      end
    end

    unique case (st_q)
      StIdle: begin
        if (done_q) begin
          // The portion is done: wake the bottom sleepers, then release the slot.
          done_d  = 1'b0;
          ent_d   = svc_ent_q;
          w_d     = '0;
          wmode_d = WkBot;
          st_d    = StWake;
        end else if (stale_q) begin
          rel_valid_o = 1'b1;
          svc_d       = 1'b0;
          stale_d     = 1'b0;
        end else if (cs_wake) begin
          if (wake_ready_i) begin
            sleep_d[sel_idx][sel_lane] = 1'b0;
            qd_d[sel_idx][sel_lane]    = 1'b0;
            woke_d                     = 1'b1;
          end
        end else if (accept) begin
          ent_d = req_ent;
          unique case (req_op_i)
            OpLaunch: begin
              // A new CTA in this resident slot starts with every barrier idle: an instance
              // the previous CTA left unfinished (COUNT never reached) is not its.
              nonex_d[req_cta_i] = req_count_i;
              for (int i = 0; i < NumIds; i++) begin
                busy_d[EntW'({req_cta_i, 4'(i)})]    = 1'b0;
                started_d[EntW'({req_cta_i, 4'(i)})] = 1'b0;
                secact_d[EntW'({req_cta_i, 4'(i)})]  = 1'b0;
                passed_d[EntW'({req_cta_i, 4'(i)})]  = '0;
                waiting_d[EntW'({req_cta_i, 4'(i)})] = '0;
                tset_d[EntW'({req_cta_i, 4'(i)})]    = 1'b0;
                stat_d[EntW'({req_cta_i, 4'(i)})]    = 1'b0;
              end
            end
            OpExit: begin
              nonex_d[req_cta_i] = nonex_q[req_cta_i] - req_count_i;
              if (exit_found) begin
                ent_d  = EntW'({req_cta_i, exit_id});
                scan_d = 1'b1;
                st_d   = StScan;
              end
            end
            OpReset: begin
              if (busy_q[req_ent]) begin
                w_d     = '0;
                wmode_d = WkRstTop;
                st_d    = StWake;
              end
            end
            OpBottom: begin
              // Only the thread inside the section finishes it; others are not in it.
              if (bot_hit) begin
                ts_next_o         = 1'b1;
                woke_d            = 1'b0;
                passed_d[req_ent] = passed_q[req_ent] + 1'b1;
                if (!req_nb_i) begin
                  resp_sleep_o                         = 1'b1;
                  sleep_d[sel_idx][sel_lane]           = 1'b1;
                  bot_d[sel_idx][sel_lane]             = 1'b1;
                  wid_d[sel_idx][sel_lane*4 +: 4]      = req_id_i;
                  botpc_d[req_ent]                     = req_tag_i;
                end
              end
            end
            OpArrive: begin
              if (req_mask_i == '0) begin
                // Only non-participants: they never wait and never claim the id; measured
                // from any thread's arrival, a timeout's clock starts (or restarts) here. At
                // an idle id the origin is kept for this tag's first participant.
                if (tmo_any && req_nonpart_i && (!busy_q[req_ent] || tag_q[req_ent] == req_tag_i))
                begin
                  if (tmo_latest || !tset_q[req_ent] || tag_q[req_ent] != req_tag_i) begin
                    tfirst_d[req_ent] = now_q;
                  end
                  tset_d[req_ent] = 1'b1;
                  tag_d[req_ent]  = req_tag_i;
                end
              end else if (busy_q[req_ent] && tag_q[req_ent] != req_tag_i) begin
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
                  kind_d[req_ent]    = req_kind_i;
                  excl_d[req_ent]    = req_excl_i;
                  started_d[req_ent] = 1'b0;
                  secact_d[req_ent]  = 1'b0;
                  passed_d[req_ent]  = '0;
                  waiting_d[req_ent] = '0;
                  // An origin set by non-participants of this tag before the id was claimed.
                  tset_d[req_ent]    = tmo_any && tset_q[req_ent] && tag_q[req_ent] == req_tag_i;
                end
                st_d = StCheck;
                if (busy_q[req_ent] && imp_q[req_ent] && started_q[req_ent] &&
                    kind_q[req_ent] == KindSync && pass_q[req_ent]) begin
                  // Invalidation: a late arrival at a simple .pass barrier continues at once.
                  resp_pass_o       = (req_mask_i != '0);
                  passed_d[req_ent] = passed_q[req_ent] + popcnt(req_mask_i);
                end else if (busy_q[req_ent] && imp_q[req_ent] && started_q[req_ent] &&
                             secact_q[req_ent]) begin
                  // A late arrival joins the section's portion: queued members now; the
                  // thread select rescans for them if it already serves the section.
                  sleep_d[{req_cta_i, req_warp_i}] = sleep_q[{req_cta_i, req_warp_i}] | req_mask_i;
                  qd_d[{req_cta_i, req_warp_i}]    = qd_q[{req_cta_i, req_warp_i}] | req_mask_i;
                  for (int t = 0; t < 32; t++) begin
                    if (req_mask_i[t]) wid_d[{req_cta_i, req_warp_i}][t*4 +: 4] = req_id_i;
                  end
                  w_d     = req_warp_i;
                  jmask_d = req_mask_i;
                  st_d    = StJoin;
                end else begin
                  if (tmo_latest || !tset_d[req_ent]) tfirst_d[req_ent] = now_q;
                  tset_d[req_ent] = 1'b1;
                  waiting_d[req_ent] = (busy_q[req_ent] ? waiting_q[req_ent] : '0) +
                                       popcnt(req_mask_i);
                  sleep_d[{req_cta_i, req_warp_i}] = sleep_q[{req_cta_i, req_warp_i}] | req_mask_i;
                  for (int t = 0; t < 32; t++) begin
                    if (req_mask_i[t]) wid_d[{req_cta_i, req_warp_i}][t*4 +: 4] = req_id_i;
                  end
                end
              end
            end
            default: ;
          endcase
        end else begin
          // Idle: look at one entry per cycle for a condition that holds (timeouts), and for
          // arrivals waiting longer than the static limit.
          tptr_d = (tptr_q == EntW'(NumEnt - 1)) ? '0 : tptr_q + 1'b1;
          stat_d[tptr_q] = busy_q[tptr_q] && (waiting_q[tptr_q] != '0) &&
                           (static_limit_i != '0) && (now_q - tfirst_q[tptr_q] >= static_limit_i);
          if (fires(tptr_q, nonex_q[CtaW'(tptr_q >> 4)])) begin
            ent_d = tptr_q;
            st_d  = StCheck;
          end
        end
      end

      StCheck, StScan: begin
        if (fires(ent_q, nonex_q[ent_cta])) begin
          if (kind_q[ent_q] == KindSync) begin
            w_d     = '0;
            wmode_d = WkTop;
            st_d    = StWake;
          end else begin
            // A section's portion: its waiting threads become queued members, and the
            // section queues for an execution slot.
            for (int w = 0; w < Warps; w++) begin
              for (int t = 0; t < 32; t++) begin
                if (sleep_q[{ent_cta, WarpW'(w)}][t] && !qd_q[{ent_cta, WarpW'(w)}][t] &&
                    !bot_q[{ent_cta, WarpW'(w)}][t] &&
                    wid_q[{ent_cta, WarpW'(w)}][t*4 +: 4] == ent_id) begin
                  qd_d[{ent_cta, WarpW'(w)}][t] = 1'b1;
                end
              end
            end
            started_d[ent_q] = 1'b1;
            waiting_d[ent_q] = '0;
            secact_d[ent_q]  = 1'b1;
            sq_d[ent_q]      = 1'b1;
            if (!inq_q[ent_q]) begin
              inq_d[ent_q] = 1'b1;
              st_d         = StQueue;
            end else if (st_q == StScan && next_found) begin
              ent_d = EntW'({ent_cta, next_id});  // its item still queues and will serve this portion
            end else begin
              scan_d = 1'b0;
              st_d   = StIdle;
            end
          end
        end else begin
          if (done_now(ent_q, nonex_q[ent_cta])) busy_d[ent_q] = 1'b0;
          if (st_q == StScan && next_found) begin
            ent_d = EntW'({ent_cta, next_id});
          end else begin
            scan_d = 1'b0;
            st_d   = StIdle;
          end
        end
      end

      StQueue: begin
        // Held while the ready FIFO is full (never dropped).
        if (rdy_ready_i) begin
          if (scan_q && next_found) begin
            ent_d = EntW'({ent_cta, next_id});
            st_d  = StScan;
          end else begin
            scan_d = 1'b0;
            st_d   = StIdle;
          end
        end
      end

      StJoin: begin
        // One late joiner per cycle to the thread select, if it serves this section.
        if (svc_q && !stale_q && svc_ent_q == ent_q && j_any) begin
          ts_join_o        = 1'b1;
          jmask_d[j_lane]  = 1'b0;
        end else begin
          jmask_d = '0;
          st_d    = StIdle;
        end
      end

      StWake: begin
        // One warp per cycle; a token waits for wake_ready_i.
        if (!wake_valid_o || wake_ready_i) begin
          sleep_d[wk_idx] = sleep_q[wk_idx] & ~wk_mask;
          qd_d[wk_idx]    = qd_q[wk_idx] & ~wk_mask;
          bot_d[wk_idx]   = bot_q[wk_idx] & ~wk_mask;
          if (w_q != WarpW'(Warps - 1)) begin
            w_d = w_q + 1'b1;
          end else if (wmode_q == WkRstTop) begin
            w_d     = '0;
            wmode_d = WkRstBot;
          end else begin
            if (wmode_q == WkRstBot) begin
              // bar.reset: the entry is idle; an item still queued for it will be stale.
              busy_d[ent_q]   = 1'b0;
              secact_d[ent_q] = 1'b0;
              sq_d[ent_q]     = 1'b0;
              if (svc_q && !stale_q && svc_ent_q == ent_q) begin
                ts_abort_o  = ts_busy_i;
                run_d       = 1'b0;
                rel_valid_o = 1'b1;
                svc_d       = 1'b0;
                woke_d      = 1'b0;
                done_d      = 1'b0;
              end
            end else if (wmode_q == WkBot) begin
              // The section's portion is done: free the slot; the next portion may start.
              secact_d[ent_q] = 1'b0;
              rel_valid_o     = 1'b1;
              svc_d           = 1'b0;
              woke_d          = 1'b0;
              if (waiting_q[ent_q] == '0 &&
                  passed_q[ent_q] >= ((count_q[ent_q] != '0) ? count_q[ent_q] : nonex_q[ent_cta]))
              begin
                busy_d[ent_q] = 1'b0;
              end
            end else begin
              started_d[ent_q] = 1'b1;
              passed_d[ent_q]  = passed_q[ent_q] + waiting_q[ent_q];
              if (passed_q[ent_q] + waiting_q[ent_q] >=
                  ((count_q[ent_q] != '0) ? count_q[ent_q] : nonex_q[ent_cta])) begin
                busy_d[ent_q] = 1'b0;
              end
            end
            if (wmode_q != WkBot) waiting_d[ent_q] = '0;
            if (wmode_q == WkBot) begin
              st_d = StCheck;
            end else if (scan_q && next_found) begin
              ent_d = EntW'({ent_cta, next_id});
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
    // The origin belongs to the waiting group: it goes when the group starts or the id frees.
    for (int e = 0; e < NumEnt; e++) begin
      if ((waiting_q[e] != '0 && waiting_d[e] == '0) || (busy_q[e] && !busy_d[e])) begin
        tset_d[e] = 1'b0;
      end
    end
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
        tset_q[e]    <= 1'b0;
        kind_q[e]    <= '0;
        excl_q[e]    <= 1'b0;
        secact_q[e]  <= 1'b0;
        sq_q[e]      <= 1'b0;
        inq_q[e]     <= 1'b0;
        botpc_q[e]   <= '0;
      end
      stat_q <= '0;
      for (int c = 0; c < NumCtas; c++) nonex_q[c] <= '0;
      for (int i = 0; i < NumCtas * Warps; i++) begin
        sleep_q[i] <= '0;
        qd_q[i]    <= '0;
        bot_q[i]   <= '0;
        wid_q[i]   <= '0;
      end
      st_q       <= StIdle;
      ent_q      <= '0;
      w_q        <= '0;
      scan_q     <= 1'b0;
      tptr_q     <= '0;
      now_q      <= '0;
      wmode_q    <= WkTop;
      jmask_q    <= '0;
      svc_q      <= 1'b0;
      stale_q    <= 1'b0;
      svc_ent_q  <= '0;
      svc_slot_q <= '0;
      woke_q     <= 1'b0;
      done_q     <= 1'b0;
      run_q      <= 1'b0;
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
        tset_q[e]    <= tset_d[e];
        kind_q[e]    <= kind_d[e];
        excl_q[e]    <= excl_d[e];
        secact_q[e]  <= secact_d[e];
        sq_q[e]      <= sq_d[e];
        inq_q[e]     <= inq_d[e];
        botpc_q[e]   <= botpc_d[e];
      end
      stat_q <= stat_d;
      for (int c = 0; c < NumCtas; c++) nonex_q[c] <= nonex_d[c];
      for (int i = 0; i < NumCtas * Warps; i++) begin
        sleep_q[i] <= sleep_d[i];
        qd_q[i]    <= qd_d[i];
        bot_q[i]   <= bot_d[i];
        wid_q[i]   <= wid_d[i];
      end
      st_q       <= st_d;
      ent_q      <= ent_d;
      w_q        <= w_d;
      scan_q     <= scan_d;
      tptr_q     <= tptr_d;
      now_q      <= now_q + 1'b1;
      wmode_q    <= wmode_d;
      jmask_q    <= jmask_d;
      svc_q      <= svc_d;
      stale_q    <= stale_d;
      svc_ent_q  <= svc_ent_d;
      svc_slot_q <= svc_slot_d;
      woke_q     <= woke_d;
      done_q     <= done_d;
      run_q      <= run_d;
    end
  end

  always_comb begin
    for (int e = 0; e < NumEnt; e++) busy_o[e] = busy_q[e];
  end
  assign static_long_o = stat_q;
  assign tmo_fire_o     = (st_q == StCheck || st_q == StScan) && fires(ent_q, nonex_q[ent_cta]) &&
                          !fires_early(ent_q, nonex_q[ent_cta]);
  assign tmo_fire_ent_o = ent_q;

`ifdef VERILATOR
  // A thread asleep in the table is never asked to sleep again; waiting counts never exceed
  // the threads of a CTA; an idle entry has nobody waiting and no section; a section thread
  // woken is a queued member asleep at the section's id; a bottom sleeper is asleep.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (accept && req_op_i == OpArrive && !resp_refused_o && !resp_pass_o) begin
        assert ((sleep_q[{req_cta_i, req_warp_i}] & req_mask_i) == '0)
          else $error("barrier_table: a sleeping thread arrived again");
      end
      for (int e = 0; e < NumEnt; e++) begin
        assert (busy_q[e] || waiting_q[e] == '0) else $error("barrier_table: idle entry with waiters");
        assert (busy_q[e] || !secact_q[e]) else $error("barrier_table: idle entry with a section");
        assert (secact_q[e] || !sq_q[e]) else $error("barrier_table: queued without a section");
        assert (waiting_q[e] <= CntW'(Warps * 32)) else $error("barrier_table: waiting overflow");
      end
      for (int i = 0; i < NumCtas * Warps; i++) begin
        assert (((qd_q[i] | bot_q[i]) & ~sleep_q[i]) == '0)
          else $error("barrier_table: queued or bottom thread not asleep");
        assert ((qd_q[i] & bot_q[i]) == '0) else $error("barrier_table: queued and at bottom");
      end
      if (cs_wake) begin
        assert (qd_q[sel_idx][sel_lane] && sleep_q[sel_idx][sel_lane] &&
                wid_q[sel_idx][sel_lane*4 +: 4] == svc_ent_q[3:0])
          else $error("barrier_table: section wake of a thread that is not a queued member");
      end
      assert (!(svc_q && !stale_q) || secact_q[svc_ent_q])
        else $error("barrier_table: section in service without a portion");
      assert (!wake_valid_o || st_q == StWake || cs_wake)
        else $error("barrier_table: wake outside a wake pass");
    end
  end
`endif

`ifdef FORMAL
  // Table bookkeeping: an idle entry has no waiters and no section, queued or bottom threads
  // are asleep, and the FSM is in a legal state. The environment behaves as the unit's thread
  // select and slots do: a selected thread is a queued member of the section in service (or
  // already woken), done comes only while serving, and a slot holds only pushed entries.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assume (!ts_done_i || (run_q && svc_q && !stale_q && !done_q && !ts_sel_valid_i));
      assume (!ts_sel_valid_i || (run_q && svc_q && !stale_q && !done_q &&
                                  (woke_q || (qd_q[sel_idx][sel_lane] && !bot_q[sel_idx][sel_lane] &&
                                              wid_q[sel_idx][sel_lane*4 +: 4] == svc_ent_q[3:0]))));
      assume (!grant_valid_i || inq_q[g_ent]);
      assume (req_cta_i <= CtaW'(NumCtas - 1) && req_warp_i <= WarpW'(Warps - 1));
      assume (!(req_valid_i && req_op_i == OpArrive) ||
              (sleep_q[{req_cta_i, req_warp_i}] & req_mask_i) == '0);  // arrivals are awake
      for (int e = 0; e < NumEnt; e++) begin
        assert (busy_q[e] || waiting_q[e] == '0);
        assert (busy_q[e] || !secact_q[e]);
        assert (secact_q[e] || !sq_q[e]);
      end
      for (int i = 0; i < NumCtas * Warps; i++) assert (((qd_q[i] | bot_q[i]) & ~sleep_q[i]) == '0);
      assert (st_q == StIdle || st_q == StCheck || st_q == StWake || st_q == StScan ||
              st_q == StQueue || st_q == StJoin);
      assert (!wake_valid_o || st_q == StWake || cs_wake);
    end
  end
`endif

endmodule
