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
// which re-activates them through its queue (ARCHITECTURE.md). While idle with no request
// waiting, one entry per cycle is checked for an elapsed TIMEOUT (so a timeout fires within
// NumCtas*16 such cycles of elapsing), and a barrier static (arrivals waiting) longer than
// static_limit_i is flagged.
//
// Critical sections: when a section's portion may start, its waiting threads become queued
// members (thread state) and the entry goes to the slots' ready FIFO. Every granted slot is a
// section in service, and several run at once (seed 0102, 0108; a section nested in another
// is served while the outer one's thread is inside). Per slot the table keeps the entry, the
// thread awake in the section and whether it is awake. The thread select is a search engine
// they share: a grant starts a search of the section's queued members from logical id 0, a
// bottom one after the thread that reached it; the thread found gets a one-thread wake token
// and the engine is free again. A bottom retires the section's thread (a blocking bottom puts
// it to sleep with the bottom's resume address); when a search finds nobody pending the
// bottom sleepers wake and the slot is released. An entry has at most one item in the FIFO
// or the slots: a grant serves the portion the entry has waiting then, or, if a reset dropped
// it meanwhile, releases the slot unserved (stale); a portion that fires while the entry's
// item still queues (after a reset) is served by that item.
module simt_barrier_table #(
  parameter int NumCtas = 2,
  parameter int Warps   = 8,              // warps per CTA (32 threads each)
  parameter int TagW    = 22,
  parameter int TimeW   = 16,
  parameter int NumSlots = 16,
  parameter int SlotW   = 4,              // >= $clog2(NumSlots)
  parameter int CntW    = 12,             // thread counts (COUNT, MIN, waiting, passed)
  parameter     TsRamStyle = "auto",        // the thread state's RAMs (simt_ram_async RamStyle)
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
  input  logic [2:0]       req_op_i,        // simt_pkg::BuLaunch (0) .. BuBottom (4)
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
  output logic             resp_sleep_o,    // bottom: the thread in the section sleeps ...
  output logic [4:0]       resp_lane_o,     // ... this lane of the warp
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
  output logic [Thr-1:0]   ts_part_o,       // the section's queued members
  output logic [TidW:0]    ts_from_o,       // search at or above (after the last served)
  output logic             ts_clear_o,      // the thread found is woken: the engine is free
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
  // Critical-section status per entry (deadlock reports): a portion is fixed (queued or in
  // service), it waits for a slot grant, the section is exclusive.
  output logic [NumEnt-1:0] sec_active_o,
  output logic [NumEnt-1:0] sec_queued_o,
  output logic [NumEnt-1:0] sec_excl_o,
  output logic [2:0]        fsm_state_o,     // Idle 0, Check 1, Wake 2, Scan 3, Queue 4 (coverage)
  // A portion starts because its TIMEOUT elapsed (neither COUNT nor MIN holds): the cycle
  // is the unit's choice (scan order), which co-simulation hands to the model.
  output logic             tmo_fire_o,
  output logic [EntW-1:0]  tmo_fire_ent_o,
  // The warp scheduler's barrier scoreboard (seed 000 [0099]): an entry as the scoreboard
  // sees it, {idle / static / dynamic (a portion started), tag}, through a read port (a
  // warp's copy is filled) and an update stream that reports every change the cycle it is
  // made (the entry holds the values from the next cycle on), one per cycle. A launch, which
  // idles the CTA's 16 entries at once, is not reported: no warp holds a copy of them then.
  input  logic [EntW-1:0]  sb_rd_idx_i,
  output logic [1:0]       sb_rd_state_o,
  output logic [TagW-1:0]  sb_rd_tag_o,
  output logic             sb_upd_valid_o,
  output logic [EntW-1:0]  sb_upd_idx_o,
  output logic [1:0]       sb_upd_state_o,
  output logic [TagW-1:0]  sb_upd_tag_o
);

  localparam logic [1:0] KindSync = 2'd0;
  // What a wake pass wakes: a simple portion's sleepers, a finished section's bottom sleepers,
  // and for a reset the top sleepers (waiting or queued), then the bottom sleepers.
  localparam logic [1:0] WkTop = 2'd0, WkBot = 2'd1, WkRstTop = 2'd2, WkRstBot = 2'd3;
  typedef enum logic [2:0] { StIdle, StCheck, StWake, StScan, StQueue } state_e;

  // Threads waiting at an entry are asleep there, so at most Thr: waiting needs WaitW bits. A
  // MIN above Thr can never be reached, as Thr + 1 can't: MIN is kept clamped to that (MinW
  // bits). COUNT and passed keep CntW: impatient portions may pass more than Thr in total.
  localparam int WaitW = $clog2(Thr + 1);
  localparam int MinW  = $clog2(Thr + 2);

  // ---- barrier state table ----------------------------------------------------------------
  logic             busy_d [NumEnt], busy_q [NumEnt];
  logic             started_d [NumEnt], started_q [NumEnt];
  logic [CntW-1:0]  passed_d [NumEnt], passed_q [NumEnt];
  logic [WaitW-1:0] waiting_d [NumEnt], waiting_q [NumEnt];
  logic             tset_d [NumEnt], tset_q [NumEnt];      // timeout origin set (tag if idle)
  logic [CntW-1:0]  nonex_d [NumCtas], nonex_q [NumCtas];
  logic             excl_d [NumEnt], excl_q [NumEnt];
  logic             secact_d [NumEnt], secact_q [NumEnt];  // section portion fixed, not done
  logic             sq_d [NumEnt], sq_q [NumEnt];          // ... queued for a slot grant
  logic             inq_d [NumEnt], inq_q [NumEnt];        // an item in the FIFO or a slot
  logic [NumEnt-1:0] stat_d, stat_q;                        // static longer than the limit
  // Fields written only at the request's entry, each through one write port, live in LUT RAM
  // (simt_ram_async: reads in the cycle, as from registers): the barrier's configuration
  // (written when an arrival claims the id), its tag (the barrier instruction's PC), a
  // blocking bottom's PC and the timeout origin of the waiting group. Their reads name one
  // entry each: ck_ent (the request's, the FSM's or the idle scan's), rs_ent (a wake token's
  // resume address) and the scoreboard's read index.
  logic             tag_we;        // the request's entry takes req_tag_i (the only tag write)
  logic             cfg_we;        // ... the arrival's configuration (claiming the id)
  logic             botpc_we;      // ... req_tag_i as its blocking bottom's PC
  logic             tfirst_we;     // ... now_q as the waiting group's timeout origin
  logic [CntW-1:0]  ck_count;      // COUNT (0: all non-exited threads)
  logic             ck_imp;        // impatient
  logic             ck_pass;       // late arrivals pass (.pass)
  logic [MinW-1:0]  ck_min;        // MIN, clamped to Thr + 1
  logic [TimeW-1:0] ck_tmo;        // TIMEOUT
  logic [1:0]       ck_kind;       // bar.sync, ordered or unordered section
  logic [TimeW-1:0] ck_tfirst;     // timeout origin of the waiting group
  logic [TagW-1:0]  ck_tag, rs_tag, rs_botpc;
  // passed and waiting change at one entry per cycle (the request's or the FSM's), or are
  // cleared for a launched CTA: one write port each, so the entries share the next value.
  logic             lclr;
  logic             pw_en, ww_en;
  logic [EntW-1:0]  pw_idx, ww_idx;
  logic [CntW-1:0]  pw_val;
  logic [WaitW-1:0] ww_val;
  logic [NumEnt-1:0] wz;           // waiting is 0 next cycle by a write (the origin goes)
  logic [5:0]       req_pop;       // the arrival's participants
  logic [CntW-1:0]  r_passed;      // the request's entry's passed count

  // ---- thread state table: asleep, queued in a section, asleep at a bottom; the id ---------
  // A RAM per warp of a CTA (simt_ram_async: LUT RAM where the part has it), one word per
  // CTA: 32 threads x {asleep, queued, at a bottom, id}, a write enable per thread. One write
  // a cycle (tw_*): one CTA's word in any of the warps' RAMs, the enabled threads all taking
  // one value (a section's members are marked in every warp at once; every other write names
  // one warp's threads), so no write reads the word it changes. Two reads per RAM: the CTA
  // whose members are marked or searched (m_cta, every warp at once) and the wake pass's
  // (ent_cta, its warp selected after). A RAM has no reset: after a reset the table clears
  // one CTA's words a cycle (clr_q) before it takes requests.
  localparam int TsW = 7;  // {asleep, queued, at a bottom, id[3:0]}
  logic [CtaW-1:0]     tw_cta;
  logic [Warps*32-1:0] tw_en;          // logical id w * 32 + t
  logic [TsW-1:0]      tw_val;
  logic [Warps*32-1:0] sl_m, qd_m, bot_m, sl_w, qd_w, bot_w;  // at m_cta; at ent_cta
  logic [Warps*128-1:0] id_m, id_w;
  logic [CtaW:0]       clr_q;          // CTAs cleared since reset
  logic                clearing;
  assign clearing = clr_q != (CtaW + 1)'(NumCtas);

  // ---- control -----------------------------------------------------------------------------
  state_e           st_d, st_q;
  logic [EntW-1:0]  ent_d, ent_q;          // entry being checked or woken
  logic [WarpW-1:0] w_d, w_q;              // warp being woken
  logic             scan_d, scan_q;        // checking every entry of a CTA (after an exit)
  logic [EntW-1:0]  tptr_d, tptr_q;        // timeout scan pointer
  logic [TimeW-1:0] now_q;
  logic [1:0]       wmode_d, wmode_q;      // what the wake pass wakes
  // Sections in service, one per granted slot: the entry and the thread woken last (inside
  // the section until its bottom; the next search starts after it).
  logic             sv_d [NumSlots], sv_q [NumSlots];
  logic [EntW-1:0]  sent_d [NumSlots], sent_q [NumSlots];
  logic [TidW-1:0]  cur_d [NumSlots], cur_q [NumSlots];
  // The thread select searches for a slot's section; a slot's portion is done (its bottom
  // sleepers wake, then it is released); a grant was stale (release the slot).
  logic             tsown_d, tsown_q;
  logic [SlotW-1:0] tsslot_d, tsslot_q;
  logic             done_d, done_q;
  logic [SlotW-1:0] dslot_d, dslot_q;
  logic             stale_d, stale_q;
  logic [SlotW-1:0] stslot_d, stslot_q;

  function automatic logic [5:0] popcnt(logic [31:0] m);
    popcnt = '0;
    for (int i = 0; i < 32; i++) popcnt = popcnt + 6'(m[i]);
  endfunction

  logic [CtaW-1:0]  ent_cta;  // the held entry's CTA and id (declared before first use)
  logic [3:0]       ent_id;

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
  logic [31:0]      wk_mask;
  logic [TagW-1:0]  wk_resume;
  logic             accept;
  logic             stable;        // no section search or wake in flight: requests may enter
  logic             cs_wake;       // the thread found for a section gets its wake token
  logic [EntW-1:0]  own_ent;       // the section the thread select searches for
  logic [CtaW-1:0]  own_cta;
  logic [WarpW-1:0] sel_warp;
  logic [4:0]       sel_lane;
  logic [EntW-1:0]  g_ent;
  logic             g_stale;
  logic [EntW-1:0]  ts_ent;        // whose queued members a search starts with
  logic             bot_hit;       // a bottom of the thread awake in a section in service
  logic [SlotW-1:0] bot_slot;
  logic [TidW-1:0]  bot_tid;
  logic             rst_hit;       // the reset entry's section is in service ...
  logic [SlotW-1:0] rst_slot;      // ... in this slot

  assign req_ent  = EntW'({req_cta_i, req_id_i});
  assign ent_cta  = CtaW'({1'b0, ent_q} >> 4);  // 0-extended: one CTA has EntW 4
  assign ent_id   = ent_q[3:0];
  assign own_ent  = sent_q[tsslot_q];
  assign own_cta  = CtaW'({1'b0, own_ent} >> 4);
  assign sel_warp = WarpW'({1'b0, ts_sel_tid_i} >> 5);  // one warp has TidW 5
  assign sel_lane = ts_sel_tid_i[4:0];
  assign g_ent    = grant_bar_i[EntW-1:0];
  assign g_stale  = !sq_q[g_ent];

  // Requests enter only while every section in service has its thread awake (no search, no
  // portion ending) and no slot grant is due: a request then meets the unit in the state the
  // model sees after each transaction.
  assign stable      = !done_q && !stale_q && !tsown_q && !(grant_valid_i || fifo_moving_i);
  assign req_ready_o = (st_q == StIdle) && stable && !clearing;
  assign accept      = req_valid_i && req_ready_o;
  assign cs_wake     = (st_q == StIdle) && tsown_q && ts_sel_valid_i;
  // The grant waits while the FIFO still moves heads into free slots, so it chooses among
  // every section that can hold a slot (the rule the model follows, independent of timing),
  // and while the thread select searches for another section.
  assign grant_take_o = grant_valid_i && !fifo_moving_i && (st_q == StIdle) && !tsown_q &&
                        !done_q && !stale_q;

  // The table's read port: every cycle needs at most one entry (besides the scoreboard's read
  // port): the FSM's entry outside Idle (Check, Scan, Wake, Queue); in Idle the request's
  // entry (a launch: the lowest busy id of its CTA, the scoreboard update it reports), else the
  // idle scan's entry. One read of the named entry replaces a copy of the logic per index.
  // In Idle the request's entry is read while it is valid, accepted or not: the address then
  // does not wait on the acceptance (whose ready waits on the slots' grant), and the idle scan
  // pauses while a request waits.
  logic [EntW-1:0]  ck_ent;
  // The entry's busy, started and section-active bits after this cycle: the FSM changes them
  // at ck_ent only (a launch clears its CTA's entries, ck_ent among them), so it writes them
  // here, and the scheduler's update is their state, not a select of every entry's next
  // bits by ck_ent (that select ended the board core's routed critical path in two seeds of
  // three at 36d7077: EXEC's class -> the barrier request -> the table -> the update).
  logic             ck_busy_n, ck_started_n, ck_secact_n;
  logic [CtaW-1:0]  ck_cta;
  logic [CntW-1:0]  ck_expected;    // COUNT, or the non-exited threads
  logic [TimeW-1:0] ck_elapsed;     // since the waiting group's timeout origin
  logic [CntW-1:0]  ck_sum;         // passed + waiting
  logic             ck_reach;       // ... reach the expected count
  logic             ck_passed;      // passed alone reach it
  logic             ck_open;        // busy, no section portion fixed, someone waiting
  logic             ck_fires;       // the portion starts now (seed's membership / impatience)
  logic             ck_early;       // ... without the TIMEOUT term
  logic             ck_done;        // nobody waiting and every expected participant passed
  always_comb begin
    if (st_q != StIdle)                ck_ent = ent_q;
    else if (req_valid_i && req_op_i == simt_pkg::BuLaunch) ck_ent = EntW'({req_cta_i, exit_id});
    else if (req_valid_i)              ck_ent = req_ent;
    else                               ck_ent = tptr_q;
  end
  // (Apart from ck_ent's block: the fields come through the RAMs' read ports.)
  always_comb begin
    ck_cta      = CtaW'({1'b0, ck_ent} >> 4);
    ck_expected = (ck_count != '0) ? ck_count : nonex_q[ck_cta];
    ck_elapsed  = now_q - ck_tfirst;
    ck_sum      = passed_q[ck_ent] + CntW'(waiting_q[ck_ent]);
    ck_reach    = (ck_sum >= ck_expected);
    ck_passed   = (passed_q[ck_ent] >= ck_expected);
    ck_open     = busy_q[ck_ent] && !secact_q[ck_ent] && (waiting_q[ck_ent] != '0);
    ck_early    = ck_open && (ck_reach ||
                              (ck_imp && ck_min != '0 && MinW'(waiting_q[ck_ent]) >= ck_min));
    ck_fires    = ck_early || (ck_open && ck_imp && ck_tmo != '0 && ck_elapsed >= ck_tmo);
    ck_done     = busy_q[ck_ent] && !secact_q[ck_ent] && (waiting_q[ck_ent] == '0) && ck_passed;
  end

  // The section whose thread reaches this bottom, and the one a reset ends.
  // A section's thread is awake (inside it) unless the thread select searches for the section
  // (after its grant or its thread's bottom) or the section's portion is ending.
  logic aw [NumSlots];
  always_comb begin
    for (int i = 0; i < NumSlots; i++) begin
      aw[i] = sv_q[i] && !(tsown_q && tsslot_q == SlotW'(i)) && !(done_q && dslot_q == SlotW'(i));
    end
  end

  // A barrier is in service in at most one slot (asserted below), so the bottom's section is
  // found first and its thread checked once, not a lane select per slot.
  logic             bs_hit;
  logic [SlotW-1:0] bs_slot;
  logic [TidW-1:0]  bs_tid;
  always_comb begin
    bs_hit   = 1'b0;
    bs_slot  = '0;
    rst_hit  = 1'b0;
    rst_slot = '0;
    for (int i = 0; i < NumSlots; i++) begin
      if (aw[i] && sent_q[i] == req_ent) begin
        bs_hit  = 1'b1;
        bs_slot = SlotW'(i);
      end
      if (sv_q[i] && sent_q[i] == ent_q) begin
        rst_hit  = 1'b1;
        rst_slot = SlotW'(i);
      end
    end
    bs_tid   = cur_q[bs_slot];
    bot_hit  = bs_hit && WarpW'({1'b0, bs_tid} >> 5) == req_warp_i && req_mask_i[bs_tid[4:0]];
    bot_slot = bot_hit ? bs_slot : '0;
    bot_tid  = bot_hit ? bs_tid : '0;
  end

  // Per thread of one CTA: it sleeps at the id in question. Outside Idle that is the FSM's entry
  // (a section's members are marked in Check or Scan); in Idle the entry a search starts for
  // (searches start only then). One compare per thread serves both. (The wake pass keeps its
  // own compares of one warp: through the slot grant, sharing these would form a loop.)
  logic [EntW-1:0] m_ent;
  logic [CtaW-1:0] m_cta;
  logic [Thr-1:0]  idm;
  assign m_ent = (st_q == StIdle) ? ts_ent : ent_q;
  assign m_cta = CtaW'({1'b0, m_ent} >> 4);
  // (The RAMs' reads at m_cta: sl_m, qd_m, bot_m, id_m.)
  always_comb begin
    for (int i = 0; i < Warps * 32; i++) idm[i] = (id_m[i*4 +: 4] == m_ent[3:0]);
  end

  // The threads of the entry being woken, in the warp being woken, for this wake pass.
  logic [31:0]  wk_sl, wk_qd, wk_bot;
  logic [127:0] wk_id;
  assign wk_sl  = sl_w[32*w_q +: 32];
  assign wk_qd  = qd_w[32*w_q +: 32];
  assign wk_bot = bot_w[32*w_q +: 32];
  assign wk_id  = id_w[128*w_q +: 128];
  always_comb begin
    for (int t = 0; t < 32; t++) begin
      wk_mask[t] = wk_sl[t] && (wk_id[t*4 +: 4] == ent_id);
      unique case (wmode_q)
        WkTop:    wk_mask[t] = wk_mask[t] && !wk_qd[t] && !wk_bot[t];
        WkRstTop: wk_mask[t] = wk_mask[t] && !wk_bot[t];
        default:  wk_mask[t] = wk_mask[t] && wk_bot[t];
      endcase
    end
  end

  // The resume address of either token, from one read: the section's tag for a section wake,
  // else the entry's tag or its blocking bottom's PC. (Not through ck_ent, which depends on the
  // request's acceptance: in the core, the wake token's ready closes a loop through it.)
  logic [EntW-1:0] rs_ent;
  always_comb begin
    rs_ent    = cs_wake ? own_ent : ent_q;
    wk_resume = ((!cs_wake && (wmode_q == WkBot || wmode_q == WkRstBot)) ? rs_botpc
                                                                         : rs_tag) + 1'b1;
  end

  // The queued members of the section a search starts for: the granted one, or the one whose
  // thread reaches its bottom.
  assign ts_ent = grant_take_o ? g_ent : req_ent;
  assign ts_part_o = qd_m & idm;  // Idle: m_ent = ts_ent

  // A section's portion starts (Check or Scan, m_ent = ent_q): its waiting threads, asleep at
  // the id and neither queued nor at a bottom, become queued members.
  logic [Warps*32-1:0] mark;
  assign mark = sl_m & ~qd_m & ~bot_m & idm;

  always_comb begin
    wake_valid_o  = 1'b0;
    wake_cta_o    = ent_cta;
    wake_warp_o   = w_q;
    wake_mask_o   = wk_mask;
    wake_resume_o = wk_resume;
    if (cs_wake) begin
      wake_valid_o  = 1'b1;
      wake_cta_o    = own_cta;
      wake_warp_o   = sel_warp;
      wake_mask_o   = 32'd1 << sel_lane;
    end else if (st_q == StWake) begin
      wake_valid_o = (wk_mask != '0);
    end
  end

  assign rdy_valid_o   = (st_q == StQueue);
  assign rdy_bar_o     = ent_q;
  assign rdy_excl_o    = excl_q[ck_ent];  // ck_ent = ent_q outside Idle
  assign resp_lane_o   = bot_tid[4:0];

  always_comb begin
    for (int e = 0; e < NumEnt; e++) begin
      busy_d[e]    = busy_q[e];
      started_d[e] = started_q[e];
      tset_d[e]    = tset_q[e];
      excl_d[e]    = excl_q[e];
      secact_d[e]  = secact_q[e];
      sq_d[e]      = sq_q[e];
      inq_d[e]     = inq_q[e];
    end
    ck_busy_n    = busy_q[ck_ent];
    ck_started_n = started_q[ck_ent];
    ck_secact_n  = secact_q[ck_ent];
    stat_d = stat_q;
    for (int c = 0; c < NumCtas; c++) nonex_d[c] = nonex_q[c];
    // The thread state's write: none, or after a reset the clear of one CTA's words.
    tw_cta         = clearing ? clr_q[CtaW-1:0] : req_cta_i;
    tw_en          = clearing ? '1 : '0;
    tw_val         = '0;
    st_d           = st_q;
    ent_d          = ent_q;
    w_d            = w_q;
    scan_d         = scan_q;
    tptr_d         = tptr_q;
    wmode_d        = wmode_q;
    for (int i = 0; i < NumSlots; i++) begin
      sv_d[i]   = sv_q[i];
      sent_d[i] = sent_q[i];
      cur_d[i]  = cur_q[i];
    end
    tsown_d        = tsown_q && !ts_done_i;
    tsslot_d       = tsslot_q;
    done_d         = done_q || (tsown_q && ts_done_i);
    dslot_d        = (tsown_q && ts_done_i) ? tsslot_q : dslot_q;
    stale_d        = stale_q;
    stslot_d       = stslot_q;
    tag_we         = 1'b0;
    cfg_we         = 1'b0;
    botpc_we       = 1'b0;
    tfirst_we      = 1'b0;
    lclr           = 1'b0;
    pw_en          = 1'b0;
    pw_idx         = '0;
    pw_val         = '0;
    ww_en          = 1'b0;
    ww_idx         = '0;
    ww_val         = '0;
    resp_refused_o = 1'b0;
    resp_pass_o    = 1'b0;
    resp_sleep_o   = 1'b0;
    ts_start_o     = 1'b0;
    ts_from_o      = '0;
    ts_clear_o     = 1'b0;
    rel_valid_o    = 1'b0;
    rel_slot_o     = '0;

    // A slot grant: the section is in service and a search of its queued members starts, or,
    // stale (its barrier was reset while it queued), the slot is released the next cycle.
    if (grant_take_o) begin
      inq_d[g_ent] = 1'b0;
      if (g_stale) begin
        stale_d  = 1'b1;
        stslot_d = grant_slot_i;
      end else begin
        sv_d[grant_slot_i]   = 1'b1;
        sent_d[grant_slot_i] = g_ent;
        sq_d[g_ent]          = 1'b0;
        ts_start_o           = 1'b1;
        tsown_d              = 1'b1;
        tsslot_d             = grant_slot_i;
      end
    end

    unique case (st_q)
      StIdle: begin
        if (done_q) begin
          // A portion is done: wake its bottom sleepers, then release the slot (done stays
          // set through the wake pass).
          ent_d   = sent_q[dslot_q];
          w_d     = '0;
          wmode_d = WkBot;
          st_d    = StWake;
        end else if (stale_q) begin
          rel_valid_o = 1'b1;
          rel_slot_o  = stslot_q;
          stale_d     = 1'b0;
        end else if (cs_wake) begin
          // The thread found is awake in its section; the thread select is free.
          if (wake_ready_i) begin
            tw_cta                     = own_cta;
            tw_en[ts_sel_tid_i]        = 1'b1;   // awake: neither queued nor at a bottom
            cur_d[tsslot_q]            = ts_sel_tid_i;
            ts_clear_o                 = 1'b1;
            tsown_d                    = 1'b0;
          end
        end else if (accept) begin
          ent_d = req_ent;
          unique case (req_op_i)
            simt_pkg::BuLaunch: begin
              // A new CTA in this resident slot starts with every barrier idle: an instance
              // the previous CTA left unfinished (COUNT never reached) is not its.
              nonex_d[req_cta_i] = req_count_i;
              lclr               = 1'b1;
              for (int i = 0; i < NumIds; i++) begin
                busy_d[EntW'({req_cta_i, 4'(i)})]    = 1'b0;
                started_d[EntW'({req_cta_i, 4'(i)})] = 1'b0;
                secact_d[EntW'({req_cta_i, 4'(i)})]  = 1'b0;
                tset_d[EntW'({req_cta_i, 4'(i)})]    = 1'b0;
                stat_d[EntW'({req_cta_i, 4'(i)})]    = 1'b0;
              end
              ck_busy_n    = 1'b0;  // (ck_ent: the CTA's lowest busy id)
              ck_started_n = 1'b0;
              ck_secact_n  = 1'b0;
            end
            simt_pkg::BuExit: begin
              nonex_d[req_cta_i] = nonex_q[req_cta_i] - req_count_i;
              if (exit_found) begin
                ent_d  = EntW'({req_cta_i, exit_id});
                scan_d = 1'b1;
                st_d   = StScan;
              end
            end
            simt_pkg::BuReset: begin
              if (busy_q[ck_ent]) begin
                w_d     = '0;
                wmode_d = WkRstTop;
                st_d    = StWake;
              end
            end
            simt_pkg::BuBottom: begin
              // Only the thread inside the section finishes it; others are not in it.
              // The search for the section's next thread starts after this one.
              if (bot_hit) begin
                ts_start_o        = 1'b1;
                ts_from_o         = {1'b0, bot_tid} + 1'b1;
                tsown_d           = 1'b1;
                tsslot_d          = bot_slot;
                pw_en             = 1'b1;
                pw_idx            = req_ent;
                pw_val            = r_passed + 1'b1;
                if (!req_nb_i) begin
                  resp_sleep_o     = 1'b1;
                  tw_en[bot_tid]   = 1'b1;
                  tw_val           = {3'b101, req_id_i};  // asleep at the bottom
                  botpc_we         = 1'b1;
                end
              end
            end
            simt_pkg::BuArrive: begin
              if (req_mask_i == '0) begin
                // Only non-participants: they never wait and never claim the id; measured
                // from any thread's arrival, a timeout's clock starts (or restarts) here. At
                // an idle id the origin is kept for this tag's first participant.
                if (tmo_any && req_nonpart_i && (!busy_q[ck_ent] || ck_tag == req_tag_i)) begin
                  if (tmo_latest || !tset_q[ck_ent] || ck_tag != req_tag_i) tfirst_we = 1'b1;
                  tset_d[req_ent] = 1'b1;
                  tag_we          = 1'b1;
                end
              end else if (busy_q[ck_ent] && ck_tag != req_tag_i) begin
                resp_refused_o = 1'b1;
              end else begin
                if (!busy_q[ck_ent]) begin
                  ck_busy_n          = 1'b1;  // (ck_ent = req_ent)
                  tag_we             = 1'b1;
                  cfg_we             = 1'b1;
                  excl_d[req_ent]    = req_excl_i;
                  ck_started_n       = 1'b0;
                  ck_secact_n        = 1'b0;
                  pw_en              = 1'b1;
                  pw_idx             = req_ent;
                  pw_val             = '0;
                  ww_en              = 1'b1;
                  ww_idx             = req_ent;
                  ww_val             = '0;
                  // An origin set by non-participants of this tag before the id was claimed.
                  tset_d[req_ent]    = tmo_any && tset_q[ck_ent] && ck_tag == req_tag_i;
                end
                st_d = StCheck;
                if (busy_q[ck_ent] && ck_imp && started_q[ck_ent] && ck_kind == KindSync &&
                    ck_pass) begin
                  // Invalidation: a late arrival at a simple .pass barrier continues at once.
                  resp_pass_o       = (req_mask_i != '0);
                  pw_en             = 1'b1;
                  pw_idx            = req_ent;
                  pw_val            = r_passed + CntW'(req_pop);
                end else if (busy_q[ck_ent] && ck_imp && started_q[ck_ent] &&
                             secact_q[ck_ent]) begin
                  // A late arrival joins the section's portion: queued members now, found by
                  // the section's next search (below its position: the second pass, out of
                  // logical order).
                  tw_en[32*req_warp_i +: 32] = req_mask_i;
                  tw_val                     = {3'b110, req_id_i};  // asleep, queued
                  st_d = StIdle;
                end else begin
                  if (tmo_latest || !tset_d[req_ent]) tfirst_we = 1'b1;
                  tset_d[req_ent] = 1'b1;
                  ww_en  = 1'b1;
                  ww_idx = req_ent;
                  ww_val = (busy_q[ck_ent] ? waiting_q[ck_ent] : '0) + WaitW'(req_pop);
                  tw_en[32*req_warp_i +: 32] = req_mask_i;
                  tw_val                     = {3'b100, req_id_i};  // asleep, waiting
                end
              end
            end
            default: ;
          endcase
        end else if (!req_valid_i) begin
          // Idle: look at one entry per cycle for a condition that holds (timeouts), and for
          // arrivals waiting longer than the static limit (not while a request waits: the read
          // port is at its entry).
          tptr_d = (tptr_q == EntW'(NumEnt - 1)) ? '0 : tptr_q + 1'b1;
          stat_d[tptr_q] = busy_q[ck_ent] && (waiting_q[ck_ent] != '0) &&  // ck_ent = tptr_q
                           (static_limit_i != '0) && (ck_elapsed >= static_limit_i);
          if (ck_fires) begin
            ent_d = tptr_q;
            st_d  = StCheck;
          end
        end
      end

      StCheck, StScan: begin
        if (ck_fires) begin
          if (ck_kind == KindSync) begin
            w_d     = '0;
            wmode_d = WkTop;
            st_d    = StWake;
          end else begin
            // A section's portion: its waiting threads become queued members, and the
            // section queues for an execution slot.
            tw_cta = ent_cta;
            tw_en  = mark;
            tw_val = {3'b110, ent_id};  // asleep at the id, now queued
            ck_started_n     = 1'b1;  // (ck_ent = ent_q outside Idle)
            ww_en            = 1'b1;
            ww_idx           = ent_q;
            ww_val           = '0;
            ck_secact_n      = 1'b1;
            sq_d[ent_q]      = 1'b1;
            if (!inq_q[ck_ent]) begin
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
          if (ck_done) ck_busy_n = 1'b0;
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

      StWake: begin
        // One warp per cycle; a token waits for wake_ready_i.
        if (!wake_valid_o || wake_ready_i) begin
          tw_cta                   = ent_cta;
          tw_en[32*w_q +: 32]      = wk_mask;  // awake
          if (w_q != WarpW'(Warps - 1)) begin
            w_d = w_q + 1'b1;
          end else if (wmode_q == WkRstTop) begin
            w_d     = '0;
            wmode_d = WkRstBot;
          end else begin
            if (wmode_q == WkRstBot) begin
              // bar.reset: the entry is idle; an item still queued for it will be stale.
              ck_busy_n       = 1'b0;
              ck_secact_n     = 1'b0;
              sq_d[ent_q]     = 1'b0;
              if (rst_hit) begin
                rel_valid_o    = 1'b1;
                rel_slot_o     = rst_slot;
                sv_d[rst_slot] = 1'b0;
              end
            end else if (wmode_q == WkBot) begin
              // The section's portion is done: free the slot; the next portion may start.
              ck_secact_n     = 1'b0;
              rel_valid_o     = 1'b1;
              rel_slot_o      = dslot_q;
              sv_d[dslot_q]   = 1'b0;
              done_d          = 1'b0;
              if (waiting_q[ent_q] == '0 && ck_passed) ck_busy_n = 1'b0;
            end else begin
              ck_started_n     = 1'b1;
              pw_en            = 1'b1;
              pw_idx           = ent_q;
              pw_val           = ck_sum;  // of ent_q, as ck_ent is in a wake pass
              if (ck_reach) ck_busy_n = 1'b0;
            end
            if (wmode_q != WkBot) begin
              ww_en  = 1'b1;
              ww_idx = ent_q;
              ww_val = '0;
            end
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
    busy_d[ck_ent]    = ck_busy_n;
    started_d[ck_ent] = ck_started_n;
    secact_d[ck_ent]  = ck_secact_n;
    // The origin belongs to the waiting group: it goes when the group starts or the id frees.
    for (int e = 0; e < NumEnt; e++) begin
      if ((waiting_q[e] != '0 && wz[e]) || (busy_q[e] && !busy_d[e])) begin
        tset_d[e] = 1'b0;
      end
    end
  end

  // The thread state's RAMs, one per warp of a CTA.
  for (genvar w = 0; w < Warps; w++) begin : g_ts
    logic [32*TsW-1:0] wdata, rd_m, rd_w;
    for (genvar t = 0; t < 32; t++) begin : g_thr
      assign wdata[t*TsW +: TsW] = tw_val;
      assign {sl_m[w*32 + t], qd_m[w*32 + t], bot_m[w*32 + t]} = rd_m[t*TsW + 4 +: 3];
      assign id_m[(w*32 + t)*4 +: 4]                           = rd_m[t*TsW +: 4];
      assign {sl_w[w*32 + t], qd_w[w*32 + t], bot_w[w*32 + t]} = rd_w[t*TsW + 4 +: 3];
      assign id_w[(w*32 + t)*4 +: 4]                           = rd_w[t*TsW +: 4];
    end
    simt_ram_async #(.Width(32 * TsW), .Depth(NumCtas), .NumRd(2), .NumWe(32),
                     .RamStyle(TsRamStyle)) u_ts (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .we_i    (tw_en[w*32 +: 32]),
      .waddr_i (tw_cta),
      .wdata_i (wdata),
      .raddr_i ({ent_cta, m_cta}),
      .rdata_o ({rd_w, rd_m})
    );
`ifdef VERILATOR
    // Every word once cleared: queued or bottom threads are asleep, never both; a section
    // thread woken is a queued member asleep at the section's id; an arrival is awake (its
    // CTA's words are the m_cta read in an accept cycle: no grant is taken then).
    always_ff @(posedge clk_i) begin
      if (rst_ni && !clearing) begin
        for (int c = 0; c < NumCtas; c++) begin
          for (int t = 0; t < 32; t++) begin
            assert (u_ts.mem[c][t*TsW + 4 +: 3] inside {3'b000, 3'b100, 3'b110, 3'b101})
              else $error("barrier_table: thread %0d of cta %0d: queued or bottom, not asleep, or both",
                          w * 32 + t, c);
          end
        end
        if (cs_wake && sel_warp == WarpW'(w)) begin
          assert (u_ts.mem[own_cta][sel_lane*TsW +: TsW] == {3'b110, own_ent[3:0]})
            else $error("barrier_table: section wake of a thread that is not a queued member");
        end
        if (accept && req_op_i == simt_pkg::BuArrive && !resp_refused_o && !resp_pass_o &&
            req_warp_i == WarpW'(w)) begin
          assert (m_cta == req_cta_i && (sl_m[w*32 +: 32] & req_mask_i) == '0)
            else $error("barrier_table: a sleeping thread arrived again");
        end
      end
    end
`endif
  end

  // After a reset, one CTA's words cleared a cycle; the only writes then.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)       clr_q <= '0;
    else if (clearing) clr_q <= clr_q + 1'b1;
  end

  // The write ports of tag, passed and waiting.
  assign req_pop  = popcnt(req_mask_i);
  assign r_passed = passed_q[ck_ent];  // ck_ent = req_ent in an accept cycle
  always_comb begin
    for (int e = 0; e < NumEnt; e++) begin
      passed_d[e]  = (pw_en && pw_idx == EntW'(e)) ? pw_val : passed_q[e];
      waiting_d[e] = (ww_en && ww_idx == EntW'(e)) ? ww_val : waiting_q[e];
      wz[e]        = ww_en && ww_idx == EntW'(e) && ww_val == '0;
      if (lclr && EntW'({req_cta_i, 4'(e % NumIds)}) == EntW'(e)) begin  // the launch's CTA
        passed_d[e]  = '0;
        waiting_d[e] = '0;
        wz[e]        = 1'b1;
      end
    end
  end

  // ---- the LUT RAMs --------------------------------------------------------------------------
  localparam int CfgW = CntW + 1 + 1 + MinW + TimeW + 2;
  logic [CfgW-1:0] cfg_wdata;
  assign cfg_wdata = {req_count_i, req_imp_i, req_pass_i,
                      (req_min_i > CntW'(Thr)) ? MinW'(Thr + 1) : MinW'(req_min_i),
                      req_timeout_i, req_kind_i};
  simt_ram_async #(.Width(CfgW), .Depth(NumEnt), .NumRd(1)) u_cfg (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (cfg_we),
    .waddr_i (req_ent),
    .wdata_i (cfg_wdata),
    .raddr_i (ck_ent),
    .rdata_o ({ck_count, ck_imp, ck_pass, ck_min, ck_tmo, ck_kind})
  );
  simt_ram_async #(.Width(TagW), .Depth(NumEnt), .NumRd(3)) u_tag (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (tag_we),
    .waddr_i (req_ent),
    .wdata_i (req_tag_i),
    .raddr_i ({sb_rd_idx_i, rs_ent, ck_ent}),
    .rdata_o ({sb_rd_tag_o, rs_tag, ck_tag})
  );
  simt_ram_async #(.Width(TagW), .Depth(NumEnt), .NumRd(1)) u_botpc (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (botpc_we),
    .waddr_i (req_ent),
    .wdata_i (req_tag_i),
    .raddr_i (rs_ent),
    .rdata_o (rs_botpc)
  );
  simt_ram_async #(.Width(TimeW), .Depth(NumEnt), .NumRd(1)) u_tfirst (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (tfirst_we),
    .waddr_i (req_ent),
    .wdata_i (now_q),
    .raddr_i (ck_ent),
    .rdata_o (ck_tfirst)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int e = 0; e < NumEnt; e++) begin
        busy_q[e]    <= 1'b0;
        started_q[e] <= 1'b0;
        passed_q[e]  <= '0;
        waiting_q[e] <= '0;
        tset_q[e]    <= 1'b0;
        excl_q[e]    <= 1'b0;
        secact_q[e]  <= 1'b0;
        sq_q[e]      <= 1'b0;
        inq_q[e]     <= 1'b0;
      end
      stat_q <= '0;
      for (int c = 0; c < NumCtas; c++) nonex_q[c] <= '0;
      st_q       <= StIdle;
      ent_q      <= '0;
      w_q        <= '0;
      scan_q     <= 1'b0;
      tptr_q     <= '0;
      now_q      <= '0;
      wmode_q    <= WkTop;
      for (int i = 0; i < NumSlots; i++) begin
        sv_q[i]   <= 1'b0;
        sent_q[i] <= '0;
        cur_q[i]  <= '0;
      end
      tsown_q    <= 1'b0;
      tsslot_q   <= '0;
      done_q     <= 1'b0;
      dslot_q    <= '0;
      stale_q    <= 1'b0;
      stslot_q   <= '0;
    end else begin
      for (int e = 0; e < NumEnt; e++) begin
        busy_q[e]    <= busy_d[e];
        started_q[e] <= started_d[e];
        passed_q[e]  <= passed_d[e];
        waiting_q[e] <= waiting_d[e];
        tset_q[e]    <= tset_d[e];
        excl_q[e]    <= excl_d[e];
        secact_q[e]  <= secact_d[e];
        sq_q[e]      <= sq_d[e];
        inq_q[e]     <= inq_d[e];
      end
      stat_q <= stat_d;
      for (int c = 0; c < NumCtas; c++) nonex_q[c] <= nonex_d[c];
      st_q       <= st_d;
      ent_q      <= ent_d;
      w_q        <= w_d;
      scan_q     <= scan_d;
      tptr_q     <= tptr_d;
      now_q      <= now_q + 1'b1;
      wmode_q    <= wmode_d;
      for (int i = 0; i < NumSlots; i++) begin
        sv_q[i]   <= sv_d[i];
        sent_q[i] <= sent_d[i];
        cur_q[i]  <= cur_d[i];
      end
      tsown_q    <= tsown_d;
      tsslot_q   <= tsslot_d;
      done_q     <= done_d;
      dslot_q    <= dslot_d;
      stale_q    <= stale_d;
      stslot_q   <= stslot_d;
    end
  end

  always_comb begin
    for (int e = 0; e < NumEnt; e++) busy_o[e] = busy_q[e];
  end
  assign static_long_o = stat_q;
  assign fsm_state_o   = st_q;
  always_comb begin
    for (int e = 0; e < NumEnt; e++) begin
      sec_active_o[e] = secact_q[e];
      sec_queued_o[e] = sq_q[e];
      sec_excl_o[e]   = excl_q[e];
    end
  end
  assign tmo_fire_o     = (st_q == StCheck || st_q == StScan) && ck_fires && !ck_early;
  assign tmo_fire_ent_o = ent_q;

  // ---- barrier scoreboard view --------------------------------------------------------------
  function automatic logic [1:0] sb_state(logic busy, logic started, logic secact);
    if (!busy) sb_state = simt_pkg::BarIdle;
    else if (started || secact) sb_state = simt_pkg::BarDynamic;
    else sb_state = simt_pkg::BarStatic;
  endfunction

  assign sb_rd_state_o = sb_state(busy_q[sb_rd_idx_i], started_q[sb_rd_idx_i], secact_q[sb_rd_idx_i]);

  // The entry whose view changes this cycle (an idle entry's tag is not part of it). Every
  // change is at the read port's entry: the request's (a launch: its CTA's lowest busy id, the
  // lowest of the entries it makes idle) or the FSM's; a cs_wake, a grant or the idle scan
  // changes none (asserted against every entry's change, sb_chg). So the update is that
  // entry's next state, not a search of the 32 entries' changes (the board core's longest
  // path ended in that search, 2026-12-06). A tag changes only at the request's entry, so one
  // compare covers it, and the reported tag is one read at the reported entry.
  logic [NumEnt-1:0] sb_chg;
  logic              sb_tag_chg;
  assign sb_tag_chg = tag_we && ck_busy_n && (req_tag_i != ck_tag);  // ck_ent = req_ent
  always_comb begin
    for (int e = 0; e < NumEnt; e++) begin
      sb_chg[e] = (sb_state(busy_d[e], started_d[e], secact_d[e]) !=
                   sb_state(busy_q[e], started_q[e], secact_q[e])) ||
                  (sb_tag_chg && req_ent == EntW'(e));
    end
  end
  always_comb begin
    sb_upd_idx_o   = ck_ent;
    sb_upd_state_o = sb_state(ck_busy_n, ck_started_n, ck_secact_n);
    sb_upd_valid_o = (sb_upd_state_o != sb_state(busy_q[ck_ent], started_q[ck_ent],
                                                  secact_q[ck_ent])) ||
                     (sb_tag_chg && req_ent == ck_ent);
    // The entry changed is the port's: its tag is the request's if it writes one, else the
    // read's.
    sb_upd_tag_o = '0;
    if (sb_upd_valid_o) sb_upd_tag_o = tag_we ? req_tag_i : ck_tag;
  end

`ifdef VERILATOR
  // A thread asleep in the table is never asked to sleep again; waiting counts never exceed
  // the threads of a CTA; an idle entry has nobody waiting and no section; a section thread
  // woken is a queued member asleep at the section's id; a bottom sleeper is asleep.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (accept && req_op_i == simt_pkg::BuArrive && !resp_refused_o && !resp_pass_o) begin
        // waiting (WaitW bits) never wraps: the waiters are asleep, at most Thr.
        assert (!ww_en || ((busy_q[req_ent] ? int'(waiting_q[req_ent]) : 0) + int'(req_pop) <= Thr))
          else $error("barrier_table: waiting overflow on arrival");
      end
      for (int e = 0; e < NumEnt; e++) begin
        assert (busy_q[e] || waiting_q[e] == '0) else $error("barrier_table: idle entry with waiters");
        assert (busy_q[e] || !secact_q[e]) else $error("barrier_table: idle entry with a section");
        assert (secact_q[e] || !sq_q[e]) else $error("barrier_table: queued without a section");
        assert (waiting_q[e] <= WaitW'(Thr)) else $error("barrier_table: waiting overflow");
      end
      // While the RAMs are cleared nothing else writes them, and nothing else happens.
      assert (!clearing || (st_q == StIdle && !accept && !cs_wake && !grant_take_o &&
                            tw_en == '1))
        else $error("barrier_table: activity while the thread state is cleared");
      for (int i = 0; i < NumSlots; i++) begin
        assert (!sv_q[i] || secact_q[sent_q[i]])
          else $error("barrier_table: section in service without a portion");
        // The search engine and the end of a portion belong to sections in service.
        assert (!(tsown_q && tsslot_q == SlotW'(i)) || sv_q[i])
          else $error("barrier_table: search for slot %0d, which is not in service", i);
        assert (!(done_q && dslot_q == SlotW'(i)) || sv_q[i])
          else $error("barrier_table: end of a portion in slot %0d, which is not in service", i);
        for (int j = i + 1; j < NumSlots; j++) begin
          assert (!(sv_q[i] && sv_q[j] && sent_q[i] == sent_q[j]))
            else $error("barrier_table: one barrier in service in two slots");
        end
      end
      assert (!(tsown_q && done_q)) else $error("barrier_table: search and end of a portion at once");
      assert (!ts_busy_i || tsown_q) else $error("barrier_table: thread select busy unasked");
      assert (!ts_start_o || !ts_busy_i) else $error("barrier_table: search started while busy");
      assert (!wake_valid_o || st_q == StWake || cs_wake)
        else $error("barrier_table: wake outside a wake pass");
      // One scoreboard update per cycle covers every change, except a launch's; every change
      // is at the read port's entry (a launch's: the lowest of those it makes idle).
      assert ($countones(sb_chg) <= 1 || (accept && req_op_i == simt_pkg::BuLaunch))
        else $error("barrier_table: %0d scoreboard changes in one cycle", $countones(sb_chg));
      assert (sb_upd_valid_o == (sb_chg != '0) &&
              (sb_chg & ((NumEnt'(1) << sb_upd_idx_o) - NumEnt'(1))) == '0 &&
              (!sb_upd_valid_o || sb_chg[sb_upd_idx_o]))
        else $error("barrier_table: changes %h reported as entry %0d (valid %b)", sb_chg,
                    sb_upd_idx_o, sb_upd_valid_o);
      // The reported tag is one read at the port's entry: it must be the reported entry's.
      assert (!sb_upd_valid_o || !busy_d[sb_upd_idx_o] || sb_upd_tag_o ==
              ((tag_we && req_ent == sb_upd_idx_o) ? req_tag_i : u_tag.mem[sb_upd_idx_o]))
        else $error("barrier_table: update of entry %0d reports tag %0h", sb_upd_idx_o,
                    sb_upd_tag_o);
    end
  end
`endif

`ifdef FORMAL
  // Table bookkeeping: an idle entry has no waiters and no section, and the FSM is in a legal
  // state. The environment behaves as the unit's thread select and slots do: results come
  // only while a search runs, and a slot holds only pushed entries. (The thread state's
  // invariants are simulation assertions on the RAM words, in g_ts: a proof would need a
  // read port for them.)
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assume (!ts_done_i || (tsown_q && !ts_sel_valid_i));
      assume (!ts_sel_valid_i || tsown_q);
      assume (!ts_busy_i || tsown_q);
      assume (!grant_valid_i || inq_q[g_ent]);
      assume (req_cta_i <= CtaW'(NumCtas - 1) && req_warp_i <= WarpW'(Warps - 1));
      for (int e = 0; e < NumEnt; e++) begin
        assert (busy_q[e] || waiting_q[e] == '0);
        assert (busy_q[e] || !secact_q[e]);
        assert (secact_q[e] || !sq_q[e]);
      end
      assert (st_q == StIdle || st_q == StCheck || st_q == StWake || st_q == StScan ||
              st_q == StQueue);
      assert (!wake_valid_o || st_q == StWake || cs_wake);
    end
  end
`endif

endmodule
