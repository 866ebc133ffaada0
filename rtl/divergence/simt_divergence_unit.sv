// Divergence unit (seed 002, ISA.md "Control flow"): per warp the PC, the active mask, each
// thread's disable reason, and the warp's double-ended token queue (simt_token_deque).
//
// One request at a time: the control behaviour of one instruction (or a barrier sleep/wake,
// or a warp launch). The request is held until req_ready_o pulses (the operation may take
// several cycles). Semantics, transaction by transaction, are those of the golden model
// DivergenceUnit (sim/model/divergence/divergence_unit.*); docs/blocks/divergence_unit.md.
//
// Sequence of one request:
//   DECODE  active/guard sets; summary lookups decide whether a queue scan is needed
//   SCAN    coverage of sync/brk/cont/ret (OR of the masks of tokens of the type, stopping
//           once every thread is covered) or the YIELD token to merge into; 2 cycles/entry
//   APPLY   disable reasons; the threads that go on and their targets
//   PUSHOP  the instruction's own token (SYNC/BRK/CONT/CALL front, YIELD back or merged,
//           BARRIER front); waits while the queue is stalled by an overflow
//   GROUP   one group of threads with the same target per cycle: the first (lowest thread)
//           runs, the others are disabled with DIV and pushed as DIV tokens
//   POP     while nothing is active: pop the front token; activate its threads waiting for
//           its reason, or discard it
//   DONE    req_ready_o
// A launch skips the sequence: IDLE sets the warp's threads, PC and reasons, DONE answers.
// The fast path answers in IDLE; its push, if any, goes into the queue from registers in
// PUSH, the next cycle, which is IDLE for the other warps' requests.
// In stack mode (DequeMode = 0, or cfg_stack_i) every token goes to the front and yield does
// nothing.
module simt_divergence_unit #(
  parameter int NumWarps = simt_pkg::NumWarps,
  parameter int Depth    = simt_pkg::QueueDepth,
  parameter bit DequeMode = 1'b1,          // 0: stack-only hardware (the baseline)
  // The fast path (a request completed in the cycle it is presented) also for threads with
  // their own targets (brx, jmx, ret): 1 (default) forms its two groups with two 32 x 22-bit
  // compare arrays; 0 takes those requests through the sequence and keeps the fast path for
  // label / pc+1 targets only, where the groups follow from the guard (the small-FPGA set:
  // same results, 37 % fewer iCE40 LUTs at 1 warp).
  parameter bit FastThreadTargets = 1'b1,
  parameter logic [15:0] LfsrSeed = 16'hACE1,
  localparam int WarpSize = 32,            // 64-bit tokens
  localparam int AddrW   = 22,
  localparam int WarpW   = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int PtrW    = $clog2(Depth + 1),
  localparam int SumW    = simt_pkg::SumW
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      cfg_stack_i,   // run-time stack mode (DequeMode = 1)
  input  logic                      lfsr_load_i,   // load the yield.p LFSR (e.g. at start)
  input  logic [15:0]               lfsr_seed_i,   // non-zero

  // Request, held until req_ready_o
  input  logic                      req_valid_i,
  input  simt_pkg::du_op_e          req_op_i,
  input  logic [WarpW-1:0]          req_warp_i,
  // The warp a plain instruction's request (DuNext) would name: req_next_ready_o is its
  // readiness, read at this warp rather than req_warp_i, which in the core is a barrier wake
  // token's warp in the states that present wakes (the wake's chain from the barrier unit
  // then reached the next issue through this readiness, issue #26). A DuNext names it.
  input  logic [WarpW-1:0]          req_next_warp_i,
  input  logic [WarpSize-1:0]       req_guard_i,
  input  logic                      req_has_target_i,
  input  logic [AddrW-1:0]          req_target_i,
  input  logic [WarpSize*AddrW-1:0] req_thread_target_i,  // brx/jmx targets, ret: r31
  // A barrier wake's (DuBarWake) threads and resume address, on ports of their own: the
  // other operations' guard and target above never carry them. In the core they come from
  // the barrier unit's deepest outputs, which thus reach only the wake's few terms and not
  // the fast path's group logic.
  input  logic [WarpSize-1:0]       req_wake_mask_i,
  input  logic [AddrW-1:0]          req_wake_target_i,
  input  logic [4:0]                req_yield_kind_i,     // 0 plain, log2(N)+1, 31 = .p
  output logic                      req_ready_o,
  output logic                      req_next_ready_o,     // a DuNext would be taken now
  output logic                      req_wake_ready_o,     // = req_ready_o for a DuBarWake
  output logic                      req_done_o,           // the sequence ends: = req_ready_o
                                                          // for a DuLaunch
  output logic [WarpSize-1:0]       resp_link_mask_o,     // cal: r31 := resp_link_value_o
  output logic [AddrW-1:0]          resp_link_value_o,
  output logic                      resp_yield_fired_o,   // yield: its token was pushed/merged
  output logic                      resp_wake_fast_o,     // barrier wake done in this cycle ...
  output logic [WarpSize-1:0]       resp_wake_mask_o,     // ... these threads now active
  output logic                      evt_pop_o,            // a token left the queue this cycle
  output logic                      evt_discard_o,        // ... and woke nobody (discarded)

  // State query (meaningful while no request is being processed)
  // Issue port: another warp's PC and active mask in the same cycle as the query port
  // (the core fetches for the next warp while it checks the previous one).
  input  logic [WarpW-1:0]          iss_warp_i,
  output logic [AddrW-1:0]          iss_pc_o,
  output logic [WarpSize-1:0]       iss_active_o,
  input  logic [WarpW-1:0]          qry_warp_i,
  output logic [AddrW-1:0]          qry_pc_o,
  output logic [WarpSize-1:0]       qry_active_o,
  output logic [WarpSize*4-1:0]     qry_reason_o,
  output logic [PtrW-1:0]           qry_q_count_o,   // the query warp's, even while busy: its
                                                     // own read, off the request's paths
  // The queue of the request's warp (req_warp_i, whether or not a request is presented):
  // its front, types and pointers (the runtime re-centres an overflowed queue with these,
  // the overflowing request being held there). Not the query warp's: the unit's own reads
  // of the queue stay at one warp, selected by no handshake.
  output logic [63:0]               q_front_o,
  output logic [SumW-1:0]           q_types_o,
  output logic [PtrW-1:0]           q_head_o,
  output logic [PtrW-1:0]           q_tail_o,

  // Token-queue exception and the runtime's maintenance port (re-centring)
  output logic                      exc_valid_o,
  output logic [WarpW-1:0]          exc_warp_o,
  output logic                      exc_back_o,
  output logic [NumWarps-1:0]       stalled_o,
  input  logic                      mnt_valid_i,
  input  simt_pkg::mnt_op_e         mnt_op_i,
  input  logic [WarpW-1:0]          mnt_warp_i,
  input  logic [PtrW-2:0]           mnt_idx_i,
  input  logic [63:0]               mnt_wdata_i,
  input  logic [PtrW-1:0]           mnt_head_i,
  input  logic [PtrW-1:0]           mnt_tail_i,
  output logic                      mnt_ready_o,
  output logic                      mnt_rvalid_o,
  output logic [63:0]               mnt_rdata_o
);

  typedef enum logic [3:0] {
    StIdle, StDecode, StScanRd, StScanWait, StApply, StPushOp, StGroup, StPop, StDone, StPush
  } state_e;

  // ---------------------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------------------
  state_e                 state_d, state_q;
  // Per warp: PC, active mask, reasons and the yield counter, in LUT RAM (simt_ram_async with
  // ResetValid: reads in the cycle, as from registers with their reset values). Only the
  // request's warp w changes, so each has one write port at w, written every cycle with w's
  // next value (its old one unless the request changes it); the other ports read the issue
  // and query warps.
  logic [AddrW-1:0]       pc_d, pc_w;            // the request's warp: next and current
  logic [WarpSize-1:0]    active_d, active_w;
  logic [WarpSize*4-1:0]  reason_d, reason_w;
  logic [8:0]             ycount_d, ycount_w;
  logic [15:0]            lfsr_d, lfsr_q;

  // Per-request registers
  logic [WarpSize-1:0]    cov_d, cov_q;          // threads covered by the scanned type
  logic [PtrW-1:0]        pos_d, pos_q;          // scan position
  logic                   merge_d, merge_q;      // a YIELD token to merge into was found
  logic [PtrW-1:0]        mpos_d, mpos_q;        // its position
  logic [63:0]            mtok_d, mtok_q;        // and its content
  logic                   fire_d, fire_q;        // the yield fires
  logic [WarpSize-1:0]    rem_d, rem_q;          // threads still to be grouped
  logic                   first_d, first_q;      // next group is the one that runs
  logic [WarpSize-1:0]    run_mask_d, run_mask_q;
  logic [AddrW-1:0]       run_pc_d, run_pc_q;
  logic [WarpSize-1:0]    link_d, link_q;
  logic [AddrW-1:0]       link_pc_d, link_pc_q;  // cal: the return address written to r31
  // The held request's operation and guarded threads (g_mask), kept as the sequence starts:
  // APPLY, PUSHOP and GROUP read these, not the request's ports, so the core's control
  // logic behind those ports does not reach the groups' leader chain (lead1h_d) or the
  // queue's push (the board core's critical path, 2026-12-07). Asserted equal to the ports.
  simt_pkg::du_op_e       seq_op_d, seq_op_q;
  logic                   seq_has_tgt_d, seq_has_tgt_q;
  logic [WarpSize-1:0]    seq_g_d, seq_g_q;
  // The fast path's push, written into the queue in the next cycle (PUSH), from these
  // registers: the fast path's groups and targets end here, not in the queue's pointers,
  // front copy and RAM write (the board core's deepest path, 2026-12-07). The token without
  // its summary bits, which the queue computes.
  logic                   pp_back_d, pp_back_q;
  logic                   pp_ovf_d, pp_ovf_q;    // it overflows: PUSH raises the exception
  logic [WarpW-1:0]       pp_warp_d, pp_warp_q;
  logic [simt_pkg::Tok64SumLsb-1:0] pp_tok_d, pp_tok_q;

  // ---------------------------------------------------------------------------------------
  // Token queue
  // ---------------------------------------------------------------------------------------
  logic              dq_push_valid, dq_push_back, dq_push_ready, dq_push_front_ready;
  logic              dq_push_back_ready;
  logic [63:0]       dq_push_token;
  logic              dq_pop_valid, dq_pop_ready;
  logic [63:0]       dq_pop_token;
  logic [63:0]       dq_front;
  logic [PtrW-1:0]   dq_count;
  logic [SumW-1:0]   dq_types;
  logic              dq_acc_valid, dq_acc_we, dq_acc_ready, dq_acc_rvalid;
  logic [63:0]       dq_acc_wdata, dq_acc_rdata;
  logic [PtrW-1:0]   dq_acc_pos;

  logic [WarpW-1:0]  w;  // the request's warp
  assign w = req_warp_i;
  logic [WarpW-1:0]  dq_push_warp;  // w's, or in PUSH the fast path's kept push's
  assign dq_push_warp = (state_q == StPush) ? pp_warp_q : w;
  // at_rest: IDLE or PUSH, the states in which a request may be answered at once. idle:
  // IDLE, or PUSH with a request of another warp, whose queue the kept push leaves alone:
  // the unit takes the request as in IDLE (its fast path, a launch, the sequence's start).
  logic              at_rest, idle;
  assign at_rest = state_q == StIdle || state_q == StPush;
  assign idle    = (state_q == StIdle) || (state_q == StPush && !pp_ovf_q && w != pp_warp_q);
  // The maintenance port waits while a request of its warp is presented in IDLE or PUSH: a
  // fast push goes into the queue a cycle later, and a stall between the two would refuse
  // it. (From the request's presence, not from whether it pushes: the port's handshake stays
  // off the fast path. In PUSH the queue's own port refuses it, a push being presented.)
  logic              mnt_hold, dq_mnt_ready;
  assign mnt_hold    = at_rest && req_valid_i && mnt_warp_i == w;
  assign mnt_ready_o = dq_mnt_ready && !mnt_hold;

  // The queue is queried at the request's warp, presented or not: selecting the external
  // query's warp by the request's validity put the core's whole handshake (control's wake in
  // CHECK, from the query port's reasons) before the queue's count, types and the fast
  // path's pop (the 2 CTA x 4 warp board core's critical path, 2026-12-07). The external
  // query's count has a read port of its own (cnt_*).
  simt_token_deque #(
    .NumWarps (NumWarps),
    .Depth    (Depth),
    .TokenW   (64)
  ) u_queue (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .push_valid_i (dq_push_valid),
    .push_warp_i  (dq_push_warp),
    .push_back_i  (dq_push_back),
    .push_token_i (dq_push_token),
    .push_ready_o (dq_push_ready),
    .fit_warp_i   (w),
    .push_front_ready_o (dq_push_front_ready),
    .push_back_ready_o  (dq_push_back_ready),
    .pop_valid_i  (dq_pop_valid),
    .pop_warp_i   (w),
    .pop_ready_o  (dq_pop_ready),
    .pop_token_o  (dq_pop_token),
    .qry_warp_i   (w),
    .qry_front_o  (dq_front),
    /* verilator lint_off PINCONNECTEMPTY */
    .qry_empty_o  (),
    /* verilator lint_on PINCONNECTEMPTY */
    .qry_count_o  (dq_count),
    .qry_head_o   (q_head_o),
    .qry_tail_o   (q_tail_o),
    .qry_types_o  (dq_types),
    .cnt_warp_i   (qry_warp_i),
    .cnt_count_o  (qry_q_count_o),
    .exc_valid_o  (exc_valid_o),
    .exc_warp_o   (exc_warp_o),
    .exc_back_o   (exc_back_o),
    .stalled_o    (stalled_o),
    .acc_valid_i  (dq_acc_valid),
    .acc_we_i     (dq_acc_we),
    .acc_warp_i   (w),
    .acc_pos_i    (dq_acc_pos),
    .acc_wdata_i  (dq_acc_wdata),
    .acc_ready_o  (dq_acc_ready),
    .acc_rvalid_o (dq_acc_rvalid),
    .acc_rdata_o  (dq_acc_rdata),
    .mnt_valid_i  (mnt_valid_i && !mnt_hold),
    .mnt_op_i     (mnt_op_i),
    .mnt_warp_i   (mnt_warp_i),
    .mnt_idx_i    (mnt_idx_i),
    .mnt_wdata_i  (mnt_wdata_i),
    .mnt_head_i   (mnt_head_i),
    .mnt_tail_i   (mnt_tail_i),
    .mnt_ready_o  (dq_mnt_ready),
    .mnt_rvalid_o (mnt_rvalid_o),
    .mnt_rdata_o  (mnt_rdata_o)
  );

  // ---------------------------------------------------------------------------------------
  // Decode of the held request
  // ---------------------------------------------------------------------------------------
  logic                stack;
  logic [WarpSize-1:0] a_mask, g_mask, r_mask;
  logic [AddrW-1:0]    next_pc;
  logic [3:0]          scan_type;  // token type whose coverage sync/brk/cont/ret need
  logic                is_cover_op;

  assign stack   = !DequeMode || cfg_stack_i;
  assign a_mask  = active_w;
  assign g_mask  = a_mask & req_guard_i;
  assign r_mask  = a_mask & ~req_guard_i;
  assign next_pc = pc_w + 1'b1;

  always_comb begin
    scan_type   = simt_pkg::TokNone;
    is_cover_op = 1'b1;
    unique case (req_op_i)
      simt_pkg::DuSync: scan_type = simt_pkg::TokSync;
      simt_pkg::DuBrk:  scan_type = simt_pkg::TokBrk;
      simt_pkg::DuCont: scan_type = simt_pkg::TokCont;
      simt_pkg::DuRet:  scan_type = simt_pkg::TokCall;
      default:          is_cover_op = 1'b0;
    endcase
  end

  // Token fields (simt_pkg::token64_t layout)
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [3:0] tok_type(logic [63:0] t);
    tok_type = t[3:0];
  endfunction
  function automatic logic [WarpSize-1:0] tok_mask(logic [63:0] t);
    tok_mask = t[35:4];
  endfunction
  function automatic logic [AddrW-1:0] tok_addr(logic [63:0] t);
    tok_addr = t[57:36];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  function automatic logic [63:0] make_tok(logic [3:0] ty, logic [WarpSize-1:0] m,
                                           logic [AddrW-1:0] ad);
    make_tok = {6'b0, ad, m, ty};
  endfunction

  // Threads of warp w disabled for a reason.
  function automatic logic [WarpSize-1:0] with_reason(logic [WarpSize*4-1:0] rs, logic [3:0] r);
    logic [WarpSize-1:0] m;
    for (int t = 0; t < WarpSize; t++) m[t] = (rs[t*4 +: 4] == r);
    with_reason = m;
  endfunction

  // The reasons after one request step: threads in dis get dis_reason, then those in none
  // get NONE and those in div get DIV (a step's none and div never overlap).
  function automatic logic [WarpSize*4-1:0] update_reasons(logic [WarpSize*4-1:0] rs,
      logic [WarpSize-1:0] dis, logic [3:0] dis_reason, logic [WarpSize-1:0] none,
      logic [WarpSize-1:0] div);
    logic [WarpSize*4-1:0] o;
    o = rs;
    for (int t = 0; t < WarpSize; t++) begin
      if (div[t])       o[t*4 +: 4] = simt_pkg::RsnDiv;
      else if (none[t]) o[t*4 +: 4] = simt_pkg::RsnNone;
      else if (dis[t])  o[t*4 +: 4] = dis_reason;
    end
    update_reasons = o;
  endfunction

  // Whether the yield fires (and the next yield counter and LFSR).
  logic [2:0]  yield_log;      // log2(N)
  logic [8:0]  yield_n;
  logic        yield_fires;
  logic [8:0]  ycount_next;
  logic [15:0] lfsr_next;
  always_comb begin
    yield_log   = 3'(req_yield_kind_i - 5'd1);
    yield_n     = 9'd1 << yield_log;
    lfsr_next   = {1'b0, lfsr_q[15:1]} ^ (lfsr_q[0] ? 16'hB400 : 16'h0000);
    ycount_next = ycount_w;
    yield_fires = 1'b0;
    if (req_yield_kind_i == 5'd31) begin
      yield_fires = (lfsr_next[3:0] == 4'd0);
    end else if (req_yield_kind_i <= 5'd1) begin
      yield_fires = 1'b1;
    end else if (ycount_w + 1'b1 >= yield_n) begin
      yield_fires = 1'b1;
      ycount_next = '0;
    end else begin
      ycount_next = ycount_w + 1'b1;
    end
  end

  // Target of each continuing thread: its own (brx/jmx: per thread, ret: r31), the label
  // (bra/jmp/cal, the fallback of sync/brk/cont) or pc + 1. Groups are formed by comparing
  // a target with the threads' own targets where they have one; the label and pc + 1 are
  // compared once for all threads (no per-thread target multiplexer).
  // Whose target a thread of the guard takes: its own (brx, jmx, ret) or the label.
  function automatic logic own_target_op(simt_pkg::du_op_e op);
    own_target_op = op == simt_pkg::DuBrx || op == simt_pkg::DuJmx || op == simt_pkg::DuRet;
  endfunction
  function automatic logic label_target_op(simt_pkg::du_op_e op);
    label_target_op = op == simt_pkg::DuBra || op == simt_pkg::DuJmp || op == simt_pkg::DuCal ||
                      op == simt_pkg::DuSync || op == simt_pkg::DuBrk || op == simt_pkg::DuCont;
  endfunction
  logic                own_op, label_op;
  logic [WarpSize-1:0] own_t, label_t;
  assign own_op   = own_target_op(req_op_i);
  assign label_op = label_target_op(req_op_i);
  assign own_t    = own_op ? g_mask : '0;
  assign label_t  = label_op ? g_mask : '0;
  // The same for the sequence's GROUP step, from the kept request.
  logic [WarpSize-1:0] seq_own_t, seq_label_t;
  assign seq_own_t   = own_target_op(seq_op_q) ? seq_g_q : '0;
  assign seq_label_t = label_target_op(seq_op_q) ? seq_g_q : '0;
  logic [WarpSize-1:0] seq_r_mask;  // r_mask from the kept threads (the guard's others)
  assign seq_r_mask  = a_mask & ~seq_g_q;

  logic [AddrW-1:0] thr_tgt [WarpSize];
  always_comb begin
    for (int t = 0; t < WarpSize; t++) thr_tgt[t] = req_thread_target_i[t*AddrW +: AddrW];
  end

  function automatic logic [WarpSize-1:0] with_target(logic [AddrW-1:0] tgt,
      logic [WarpSize-1:0] own, logic [WarpSize-1:0] lab, logic [WarpSize*AddrW-1:0] thr,
      logic [AddrW-1:0] label, logic [AddrW-1:0] npc);
    logic label_eq, npc_eq;
    label_eq = (label == tgt);
    npc_eq   = (npc == tgt);
    for (int t = 0; t < WarpSize; t++) begin
      with_target[t] = own[t] ? (thr[t*AddrW +: AddrW] == tgt) : (lab[t] ? label_eq : npc_eq);
    end
  endfunction

  // The next group: threads of rem_q with the target of its lowest thread, the leader. The
  // leader is kept one-hot beside rem_q (lead1h_q: rem_d's lowest thread, a carry chain), so
  // its target is an AND-OR select of the threads' targets rather than a priority search of
  // rem_q and a 32-way multiplexer (the board core's longest chain ran through that search
  // into the queue's push, 2026-12-06).
  logic [WarpSize-1:0] lead1h_d, lead1h_q;
  logic                lead_found;
  logic                lead_own, lead_label;
  logic [AddrW-1:0]    lead_thr_tgt;
  logic [AddrW-1:0]    lead_target;
  logic [WarpSize-1:0] group;
  assign lead1h_d   = rem_d & (~rem_d + 1'b1);
  assign lead_found = rem_q != '0;
  assign lead_own   = (lead1h_q & seq_own_t) != '0;
  assign lead_label = (lead1h_q & seq_label_t) != '0;
  always_comb begin
    lead_thr_tgt = '0;
    for (int t = 0; t < WarpSize; t++) begin
      lead_thr_tgt = lead_thr_tgt | (lead1h_q[t] ? thr_tgt[t] : '0);
    end
    lead_target = lead_own ? lead_thr_tgt : (lead_label ? req_target_i : next_pc);
    group       = rem_q & with_target(lead_target, seq_own_t, seq_label_t, req_thread_target_i,
                                      req_target_i, next_pc);
  end

  // ---------------------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------------------
  // ---------------------------------------------------------------------------------------
  // Fast path: a request that needs no queue scan, at most one push, at most two groups and
  // no pop completes in the cycle it is presented (req_ready_o in that cycle). Everything
  // else goes through the sequence above; both give the same result.
  // ---------------------------------------------------------------------------------------
  logic [WarpSize-1:0] f_dis, f_rem, f_grp1, f_rest, f_grp2;
  logic                f_dis_on;  // the guard's threads are disabled: f_dis = g_mask,
                                  // f_rem = r_mask (else none: f_rem = a_mask)
  logic [3:0]          f_dis_reason;
  logic                f_op_push, f_op_back, f_eligible, f_pushes_div;
  logic [63:0]         f_op_tok;
  logic [4:0]          f_lead1;
  logic                f_found1, f_found2;
  logic                f_any;   // = f_found1, without the leader search (the readiness needs
                                // no leader: it stays off the search's levels)
  logic [AddrW-1:0]    f_tgt1, f_tgt2;

  // Every operation that disables threads disables the guard's: one bit says whether, and the
  // terms that follow (the threads going on, whether any and the leader's group) are picked
  // by it late, each from both cases computed beside the decision (the decision waits on the
  // queue's front token; the board core's longest chains ran through the 32 threads going
  // on into the leader's search, 2026-12-06).
  always_comb begin
    f_dis_on     = 1'b0;
    f_dis_reason = simt_pkg::RsnNone;
    f_op_push    = 1'b0;
    f_op_back    = 1'b0;
    f_op_tok     = '0;
    f_eligible   = (a_mask != '0);
    unique case (req_op_i)
      simt_pkg::DuSsy, simt_pkg::DuPbrk, simt_pkg::DuPcont: begin
        f_op_push = (g_mask != '0);
        f_op_tok  = make_tok(req_op_i == simt_pkg::DuSsy  ? simt_pkg::TokSync :
                             req_op_i == simt_pkg::DuPbrk ? simt_pkg::TokBrk : simt_pkg::TokCont,
                             g_mask, req_target_i);
      end
      simt_pkg::DuCal: begin
        f_op_push = (g_mask != '0);
        f_op_tok  = make_tok(simt_pkg::TokCall, g_mask, next_pc);
      end
      simt_pkg::DuExit, simt_pkg::DuBarSleep: begin
        f_dis_on     = 1'b1;
        f_dis_reason = (req_op_i == simt_pkg::DuExit) ? simt_pkg::RsnExit : simt_pkg::RsnBarrier;
      end
      simt_pkg::DuYield: begin
        if (g_mask != '0 && !stack && yield_fires) begin
          // A YIELD token that might take the merge needs the scan: slow path.
          f_eligible   = f_eligible && !dq_types[simt_pkg::SumYield];
          f_dis_on     = 1'b1;
          f_dis_reason = simt_pkg::RsnYield;
          f_op_push    = 1'b1;
          f_op_back    = 1'b1;
          f_op_tok     = make_tok(simt_pkg::TokYield, g_mask, next_pc);
        end
      end
      simt_pkg::DuSync, simt_pkg::DuBrk, simt_pkg::DuCont, simt_pkg::DuRet: begin
        if ((dq_types & simt_pkg::summary_bit(scan_type)) == '0) begin
          // No token of the type: nobody is covered (no scan needed).
          if (req_op_i != simt_pkg::DuRet && !req_has_target_i) begin
            f_dis_on     = 1'b1;
            f_dis_reason = scan_type;
          end
        end else if (tok_type(dq_front) == scan_type && (g_mask & ~tok_mask(dq_front)) == '0) begin
          // The front token alone covers every thread: all of them wait (the usual
          // reconvergence at the end of an if/else or a loop body).
          f_dis_on     = 1'b1;
          f_dis_reason = scan_type;
        end else begin
          f_eligible = 1'b0;  // coverage needs the scan
        end
      end
      simt_pkg::DuBarWake, simt_pkg::DuLaunch: f_eligible = 1'b0;
      default: ;
    endcase
  end
  assign f_dis = f_dis_on ? g_mask : '0;
  assign f_rem = f_dis_on ? r_mask : a_mask;

  // The first two groups of the threads that go on.
  simt_find_next_set #(
    .N    (WarpSize),
    .Wrap (1'b0)
  ) u_f_lead1 (
    .vec_i   (f_rem),
    .start_i ('0),
    .found_o (f_found1),
    .idx_o   (f_lead1)
  );
  assign f_any = f_dis_on ? (r_mask != '0) : (a_mask != '0);
  // Whether threads going on may have targets of their own; without FastThreadTargets such
  // a request takes the sequence, and the groups follow from the guard: the threads on the
  // label and those at pc + 1 (one group when the two are equal).
  logic f_own_targets;  // (f_rem & own_t) != 0: the guard's threads go on and there are some
  assign f_own_targets = own_op && !f_dis_on && g_mask != '0;
  if (FastThreadTargets) begin : g_fast_own
    logic [4:0] f_lead2;
    always_comb begin
      f_tgt1 = own_t[f_lead1] ? thr_tgt[f_lead1] : (label_t[f_lead1] ? req_target_i : next_pc);
      f_grp1 = f_rem & with_target(f_tgt1, own_t, label_t, req_thread_target_i, req_target_i,
                                   next_pc);
      f_rest = f_rem & ~f_grp1;
    end
    simt_find_next_set #(
      .N    (WarpSize),
      .Wrap (1'b0)
    ) u_f_lead2 (
      .vec_i   (f_rest),
      .start_i ('0),
      .found_o (f_found2),
      .idx_o   (f_lead2)
    );
    always_comb begin
      f_tgt2 = own_t[f_lead2] ? thr_tgt[f_lead2] : (label_t[f_lead2] ? req_target_i : next_pc);
      f_grp2 = f_rest & with_target(f_tgt2, own_t, label_t, req_thread_target_i, req_target_i,
                                    next_pc);
    end
  end else begin : g_fast_uniform
    // The leader (the lowest thread going on) takes the label when the guard's threads go on
    // (a label operation disables none or all of them) and the lowest active thread is the
    // guard's: from the warp's mask, not from the threads going on.
    logic [4:0] a_lead;
    logic       f_lead_on_label;
    /* verilator lint_off PINCONNECTEMPTY */
    simt_find_next_set #(
      .N    (WarpSize),
      .Wrap (1'b0)
    ) u_a_lead (
      .vec_i   (a_mask),
      .start_i ('0),
      .found_o (),
      .idx_o   (a_lead)
    );
    /* verilator lint_on PINCONNECTEMPTY */
    assign f_lead_on_label = label_op && !f_dis_on && g_mask[a_lead];
`ifdef VERILATOR
    always_comb begin
      if (f_found1)
        assert (f_lead_on_label == label_t[f_lead1])
          else $error("divergence_unit: the leader's label from the warp's mask disagrees");
    end
`endif
    always_comb begin
      f_tgt1 = f_lead_on_label ? req_target_i : next_pc;
      f_tgt2 = f_lead_on_label ? next_pc : req_target_i;
      if (!label_op || req_target_i == next_pc) f_grp1 = f_rem;
      else if (f_lead_on_label)                   f_grp1 = f_rem & g_mask;
      else                                        f_grp1 = f_rem & ~g_mask;
      f_rest   = f_rem & ~f_grp1;
      f_grp2   = f_rest;
      // Two groups when some threads going on take the label and some go to pc + 1: from the
      // guard alone, not from the leader (the same as f_rest != 0, asserted below).
      f_found2 = label_op && req_target_i != next_pc && !f_dis_on && g_mask != '0 &&
                 r_mask != '0;
    end
  end

  // A plain instruction's request (DuNext: no token, every active thread goes on at pc + 1)
  // takes the fast path whenever the unit is idle and the warp's queue is not stalled: its
  // readiness from the state alone, none of the request's fields (asserted equal to
  // req_ready_o below), so that the core's next issue after a plain instruction does not
  // wait for the fast path's group logic.
  logic [AddrW-1:0]    pc_n;      // (req_next_warp_i's PC: unused)
  logic [WarpSize-1:0] active_n;  // req_next_warp_i's active threads
  assign req_next_ready_o = at_rest && active_n != '0 && !stalled_o[req_next_warp_i];

  // Whether the fast path's push, if any, is taken: from the queue's state at the push's end
  // (no pop is presented beside a fast push), so that the request's validity and the fast
  // path's decision enter the readiness last rather than through the queue's handshake
  // (asserted equal to the handshake below).
  logic f_push_fits;
  assign f_push_fits = !(f_op_push || f_pushes_div) ||
                       ((f_op_push && f_op_back) ? dq_push_back_ready : dq_push_front_ready);

  logic fast;      // the presented request can complete this cycle (if its push is accepted)
  logic fast_pop;  // nothing goes on: disable, then pop the front token in this cycle
  assign f_pushes_div = f_found2;
  assign fast = idle && req_valid_i && f_eligible && f_any &&
                (f_rest == f_grp2) && !(f_op_push && f_pushes_div) && !stalled_o[w] &&
                (FastThreadTargets || !f_own_targets);
  assign fast_pop = idle && req_valid_i && f_eligible && !f_any &&
                    !f_op_push && !stalled_o[w];

  // The threads the front token would wake: those waiting for its reason, on the fast path
  // after this cycle's disables.
  logic [WarpSize-1:0] pop_match, pop_wake, f_pop_wake;
  assign pop_match  = with_reason(reason_w, tok_type(dq_pop_token));
  assign pop_wake   = tok_mask(dq_pop_token) & pop_match;
  assign f_pop_wake = tok_mask(dq_pop_token) &
                      ((f_dis & {WarpSize{f_dis_reason == tok_type(dq_pop_token)}}) |
                       (~f_dis & pop_match));
  // Whether it wakes any, both cases of the disable decision computed beside it and picked
  // by it (the readiness's last term, asserted equal to f_pop_wake != 0): not the decision
  // through the 32 threads' masks into their OR.
  logic f_pop_any, f_pop_any_dis, f_pop_any_keep;
  assign f_pop_any_keep = (tok_mask(dq_pop_token) & pop_match) != '0;
  assign f_pop_any_dis  = ((f_dis_reason == tok_type(dq_pop_token)) &&
                           (tok_mask(dq_pop_token) & g_mask) != '0) ||
                          (tok_mask(dq_pop_token) & ~g_mask & pop_match) != '0;
  assign f_pop_any      = f_dis_on ? f_pop_any_dis : f_pop_any_keep;

  // Queue requests of this cycle: from the state and registers only (the readies they get
  // back decide the next state below). Nothing is requested while the warp's queue is
  // stalled by an overflow, so the runtime's maintenance port gets the cycles it needs.
  logic [WarpSize-1:0] wake_mask;
  assign wake_mask = req_wake_mask_i & with_reason(reason_w, simt_pkg::RsnBarrier);
  // A wake of a warp with no active thread pushes its BARRIER token at the front and pops it
  // at once: when the push would be accepted, the same outcome in one cycle (no queue access).
  logic fast_wake_if, fast_wake;  // (if a wake is presented; one is)
  assign fast_wake_if = idle && req_op_i == simt_pkg::DuBarWake &&
                        a_mask == '0 && wake_mask != '0 && !stalled_o[w];
  assign fast_wake    = req_valid_i && fast_wake_if;
  logic fast_wake_done;  // ... and its front push would be taken: done in this cycle
  assign fast_wake_done = fast_wake && dq_push_front_ready;

  // A wake's readiness without the other operations' fast-path terms (the requester's
  // handshake with the barrier unit hangs off it): its fast wake, or the end of its sequence.
  // Asserted equal to req_ready_o whenever a DuBarWake is presented. Not from the request's
  // validity either: the requester looks at it only while it presents a wake, and in the core
  // the validity comes from the instruction path (the barrier unit's scoreboard update
  // waited on it, through the wake's handshake, 2026-12-06).
  assign req_wake_ready_o = (fast_wake_if && dq_push_front_ready) || state_q == StDone;
  // A launch takes no fast path: it is taken when its two-cycle sequence ends. Its requester
  // (the core's launch unit) reads this rather than req_ready_o, whose fast-path terms it
  // would otherwise wait on through the request it muxes in (the board core's longest
  // routed path once the next issue no longer did, 2026-12-07).
  assign req_done_o = state_q == StDone;

  always_comb begin
    dq_push_valid = 1'b0;
    dq_push_back  = 1'b0;
    dq_push_token = '0;
    dq_pop_valid  = 1'b0;
    dq_acc_valid  = 1'b0;
    dq_acc_we     = 1'b0;
    dq_acc_pos    = pos_q;
    dq_acc_wdata  = '0;
    unique case (state_q)
      // (IDLE: the fast path's push goes in PUSH, next cycle, from pp_*_q.)
      StIdle: if (fast_pop) dq_pop_valid = (dq_count != '0);
      StPush: begin  // (beside it, another warp's fast pop)
        dq_push_valid = 1'b1;
        dq_push_back  = pp_back_q;
        dq_push_token = 64'(pp_tok_q);
        if (fast_pop) dq_pop_valid = (dq_count != '0);
      end
      StScanRd: dq_acc_valid = (pos_q < dq_count);
      StPushOp: begin
        unique case (seq_op_q)
          simt_pkg::DuSsy:   dq_push_token = make_tok(simt_pkg::TokSync, seq_g_q, req_target_i);
          simt_pkg::DuPbrk:  dq_push_token = make_tok(simt_pkg::TokBrk, seq_g_q, req_target_i);
          simt_pkg::DuPcont: dq_push_token = make_tok(simt_pkg::TokCont, seq_g_q, req_target_i);
          simt_pkg::DuCal:   dq_push_token = make_tok(simt_pkg::TokCall, seq_g_q, next_pc);
          simt_pkg::DuYield: dq_push_token = make_tok(simt_pkg::TokYield, seq_g_q, next_pc);
          default: dq_push_token = make_tok(simt_pkg::TokBarrier, wake_mask, req_wake_target_i);
        endcase
        if (seq_op_q == simt_pkg::DuYield && merge_q) begin
          // OR the yielding threads into the YIELD token with the same address.
          dq_acc_valid = 1'b1;
          dq_acc_we    = 1'b1;
          dq_acc_pos   = mpos_q;
          dq_acc_wdata = mtok_q | {28'b0, seq_g_q, 4'b0};
        end else if (!(seq_op_q == simt_pkg::DuBarWake && wake_mask == '0)) begin
          dq_push_valid = 1'b1;
          dq_push_back  = (seq_op_q == simt_pkg::DuYield) && !stack;
        end
      end
      StGroup: begin
        if (lead_found && !first_q) begin
          dq_push_valid = 1'b1;
          dq_push_token = make_tok(simt_pkg::TokDiv, group, lead_target);
        end
      end
      StPop: dq_pop_valid = (active_w == '0) && (dq_count != '0);
      default: ;
    endcase
    if (stalled_o[w]) begin
      if (state_q != StPush) dq_push_valid = 1'b0;  // (PUSH's warp is not stalled: asserted)
      dq_pop_valid  = 1'b0;
      dq_acc_valid  = 1'b0;
    end
  end

  // This cycle's change of the request's warp's reasons, as masks (update_reasons): cheaper
  // to select per state than 128-bit reason vectors.
  logic [WarpSize-1:0] rs_dis, rs_none, rs_div;
  logic [3:0]          rs_dis_reason;

  always_comb begin
    state_d    = state_q;
    rs_dis        = '0;
    rs_dis_reason = simt_pkg::RsnNone;
    rs_none       = '0;
    rs_div        = '0;
    pc_d       = pc_w;
    active_d   = active_w;
    ycount_d   = ycount_w;
    lfsr_d     = (lfsr_load_i && lfsr_seed_i != '0) ? lfsr_seed_i : lfsr_q;
    cov_d      = cov_q;
    pos_d      = pos_q;
    merge_d    = merge_q;
    mpos_d     = mpos_q;
    mtok_d     = mtok_q;
    fire_d     = fire_q;
    rem_d      = rem_q;
    first_d    = first_q;
    run_mask_d = run_mask_q;
    run_pc_d   = run_pc_q;
    link_d     = link_q;
    link_pc_d  = link_pc_q;
    // Kept while the sequence runs; taken from the ports in IDLE, where it starts.
    seq_op_d      = seq_op_q;
    seq_has_tgt_d = seq_has_tgt_q;
    seq_g_d       = seq_g_q;
    pp_back_d     = f_op_push && f_op_back;
    pp_ovf_d      = !f_push_fits;
    pp_warp_d     = w;
    pp_tok_d      = simt_pkg::Tok64SumLsb'(f_op_push ? f_op_tok :
                                           make_tok(simt_pkg::TokDiv, f_grp2, f_tgt2));
    if (at_rest) begin
      seq_op_d      = req_op_i;
      seq_has_tgt_d = req_has_target_i;
      seq_g_d       = g_mask;
    end

    req_ready_o   = 1'b0;

    unique case (state_q)
      // PUSH: the fast path's push goes into the queue (taken: its fit was the queue's state
      // in the cycle before, which nothing has changed since, asserted). A request of another
      // warp is taken as in IDLE (idle); of the pushing warp, whose queue is a cycle behind,
      // only a plain instruction's (DuNext: no queue read or write), the others wait.
      StIdle, StPush: if (!idle) begin
        // (An overflowing push, presented to raise the queue's exception: the request, still
        // held, goes on through the sequence, whose push waits for the runtime's re-centring.)
        state_d = pp_ovf_q ? StDecode : StIdle;
        if (!pp_ovf_q && req_valid_i && req_op_i == simt_pkg::DuNext && req_next_ready_o) begin
          active_d    = a_mask;
          pc_d        = next_pc;
          req_ready_o = 1'b1;
        end
      end else begin
        if (state_q == StPush) state_d = StIdle;
        if (fast && f_push_fits) begin
          // The whole request in this cycle.
          rs_dis        = f_dis;
          rs_dis_reason = f_dis_reason;
          rs_none       = f_grp1;
          if (f_pushes_div) rs_div = f_grp2;
          active_d = f_grp1;
          pc_d     = f_tgt1;
          if (req_op_i == simt_pkg::DuYield && g_mask != '0 && !stack) begin
            ycount_d = ycount_next;
            if (req_yield_kind_i == 5'd31) lfsr_d = lfsr_next;
          end
          req_ready_o = 1'b1;
          if (f_op_push || f_pushes_div) state_d = StPush;  // the push, next cycle
        end else if (fast) begin
          // Its push would overflow: presented in PUSH all the same, so that the queue raises
          // the overflow exception as early as it did when the fast path pushed directly (a
          // runtime's re-centring starts then), and the request is not answered.
          state_d = StPush;
        end else if (fast_pop && (dq_count == '0 || dq_pop_ready)) begin
          rs_dis        = f_dis;
          rs_dis_reason = f_dis_reason;
          active_d      = '0;
          if (dq_count == '0) begin
            req_ready_o = 1'b1;  // nothing left to run and no token: the warp waits or is done
          end else if (f_pop_any) begin
            active_d    = f_pop_wake;
            pc_d        = tok_addr(dq_pop_token);
            rs_none     = f_pop_wake;
            req_ready_o = 1'b1;
          end else begin
            state_d = StPop;  // the token was discarded: keep popping
          end
        end else if (fast_wake_done) begin
          active_d    = wake_mask;
          pc_d        = req_wake_target_i;
          rs_none     = wake_mask;
          req_ready_o = 1'b1;
        end else if (req_valid_i && req_op_i == simt_pkg::DuLaunch) begin
          // A launch needs no decode: the warp's threads, PC and reasons now, ready in DONE
          // (two cycles; the CTA launch takes the next warp's slot meanwhile).
          link_d        = '0;
          fire_d        = 1'b0;
          active_d      = req_guard_i;
          pc_d          = req_target_i;
          ycount_d      = '0;
          rs_dis        = ~req_guard_i;
          rs_dis_reason = simt_pkg::RsnExit;
          rs_none       = req_guard_i;
          state_d       = StDone;
        end else if (req_valid_i) begin
          state_d = StDecode;  // the sequence (or a retry of a refused push)
        end
      end

      StDecode: begin
        cov_d   = '0;
        pos_d   = '0;
        merge_d = 1'b0;
        link_d  = '0;
        fire_d  = 1'b0;
        if (req_op_i == simt_pkg::DuBarWake) begin
          state_d = StPushOp;
        end else if (req_op_i == simt_pkg::DuYield) begin
          if (g_mask != '0 && !stack) begin
            fire_d = yield_fires;
            ycount_d = ycount_next;
            if (req_yield_kind_i == 5'd31) lfsr_d = lfsr_next;
            // A YIELD token with this address may exist: look for it.
            if (yield_fires && dq_types[simt_pkg::SumYield]) state_d = StScanRd;
            else state_d = StApply;
          end else begin
            state_d = StApply;
          end
        end else if (is_cover_op &&
                     (dq_types & simt_pkg::summary_bit(scan_type)) != '0 && g_mask != '0) begin
          state_d = StScanRd;
        end else begin
          state_d = StApply;
        end
      end

      StScanRd: begin
        if (pos_q >= dq_count) state_d = StApply;  // scanned everything
        else if (dq_acc_valid && dq_acc_ready) state_d = StScanWait;
      end

      StScanWait: begin
        if (dq_acc_rvalid) begin
          pos_d   = pos_q + 1'b1;
          state_d = StScanRd;
          if (req_op_i == simt_pkg::DuYield) begin
            if (tok_type(dq_acc_rdata) == simt_pkg::TokYield &&
                tok_addr(dq_acc_rdata) == next_pc) begin
              merge_d = 1'b1;
              mpos_d  = pos_q;
              mtok_d  = dq_acc_rdata;
              state_d = StApply;
            end
          end else begin
            if (tok_type(dq_acc_rdata) == scan_type) cov_d = cov_q | tok_mask(dq_acc_rdata);
            // Stop once every thread the instruction applies to is covered.
            if ((g_mask & ~(cov_q | (tok_type(dq_acc_rdata) == scan_type ?
                                     tok_mask(dq_acc_rdata) : '0))) == '0) begin
              state_d = StApply;
            end
          end
        end
      end

      StApply: begin
        first_d = 1'b1;
        rem_d   = a_mask;  // by default every active thread goes on
        unique case (seq_op_q)
          simt_pkg::DuSync, simt_pkg::DuBrk, simt_pkg::DuCont: begin
            // Covered threads wait; uncovered ones take the fallback or, without one, wait
            // (stranded).
            if (seq_has_tgt_q) begin
              rs_dis        = seq_g_q & cov_q;
              rs_dis_reason = scan_type;
              rem_d         = a_mask & ~(seq_g_q & cov_q);
            end else begin
              rs_dis        = seq_g_q;
              rs_dis_reason = scan_type;
              rem_d         = seq_r_mask;
            end
          end
          simt_pkg::DuRet: begin
            rs_dis        = seq_g_q & cov_q;
            rs_dis_reason = simt_pkg::RsnCall;
            rem_d         = a_mask & ~(seq_g_q & cov_q);
          end
          simt_pkg::DuExit: begin
            rs_dis        = seq_g_q;
            rs_dis_reason = simt_pkg::RsnExit;
            rem_d         = seq_r_mask;
          end
          simt_pkg::DuBarSleep: begin
            rs_dis        = seq_g_q;
            rs_dis_reason = simt_pkg::RsnBarrier;
            rem_d         = seq_r_mask;
          end
          simt_pkg::DuYield: begin
            if (fire_q) begin
              rs_dis        = seq_g_q;
              rs_dis_reason = simt_pkg::RsnYield;
              rem_d         = seq_r_mask;
            end
          end
          default: ;
        endcase
        // The instruction's own token, if any.
        unique case (seq_op_q)
          simt_pkg::DuSsy, simt_pkg::DuPbrk, simt_pkg::DuPcont, simt_pkg::DuCal:
            state_d = (seq_g_q != '0) ? StPushOp : StGroup;
          simt_pkg::DuYield: state_d = fire_q ? StPushOp : StGroup;
          default: state_d = StGroup;
        endcase
        if (seq_op_q == simt_pkg::DuCal) begin
          link_d    = seq_g_q;
          link_pc_d = next_pc;
        end
      end

      StPushOp: begin
        if (seq_op_q == simt_pkg::DuYield && merge_q) begin
          if (dq_acc_valid && dq_acc_ready) state_d = StGroup;  // merged into its YIELD token
        end else if (seq_op_q == simt_pkg::DuBarWake && wake_mask == '0) begin
          state_d = StDone;  // a wake for no sleeping thread
        end else if (dq_push_valid && dq_push_ready) begin
          if (seq_op_q == simt_pkg::DuBarWake) state_d = (a_mask == '0) ? StPop : StDone;
          else state_d = StGroup;
        end
      end

      StGroup: begin
        if (!lead_found) begin
          // All groups placed.
          active_d = first_q ? '0 : run_mask_q;
          if (!first_q) pc_d = run_pc_q;
          state_d = first_q ? StPop : StDone;
        end else if (first_q) begin
          run_mask_d  = group;
          run_pc_d    = lead_target;
          rs_none     = group;
          rem_d       = rem_q & ~group;
          first_d     = 1'b0;
        end else begin
          if (dq_push_valid && dq_push_ready) begin
            rs_div      = group;
            rem_d       = rem_q & ~group;
          end
        end
      end

      StPop: begin
        if (active_w != '0 || dq_count == '0) begin
          state_d = StDone;
        end else begin
          if (dq_pop_valid && dq_pop_ready && pop_wake != '0) begin
            active_d    = pop_wake;
            pc_d        = tok_addr(dq_pop_token);
            rs_none     = pop_wake;
            state_d     = StDone;
          end
          // otherwise the token is discarded and the next one is looked at next cycle
        end
      end

      StDone: begin
        req_ready_o = 1'b1;
        state_d     = StIdle;
      end

      default: state_d = StIdle;
    endcase
    reason_d = update_reasons(reason_w, rs_dis, rs_dis_reason, rs_none, rs_div);
  end

  // cal's r31 write: from this cycle on the fast path, else from the sequence's registers.
  assign resp_link_mask_o  = at_rest ?
                             ((req_op_i == simt_pkg::DuCal) ? g_mask : '0) : link_q;
  assign resp_link_value_o = at_rest ? next_pc : link_pc_q;
  assign resp_yield_fired_o = fire_q;
  assign resp_wake_fast_o   = fast_wake_done;
  assign resp_wake_mask_o   = wake_mask;
  // Events for the performance counters.
  assign evt_pop_o     = (dq_pop_valid && dq_pop_ready) || fast_wake_done;
  assign evt_discard_o = dq_pop_valid && dq_pop_ready &&
                         (at_rest ? (f_pop_wake == '0) : (pop_wake == '0));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StIdle;
      lfsr_q     <= LfsrSeed;
      cov_q      <= '0;
      pos_q      <= '0;
      merge_q    <= 1'b0;
      mpos_q     <= '0;
      mtok_q     <= '0;
      fire_q     <= 1'b0;
      rem_q      <= '0;
      lead1h_q   <= '0;
      first_q    <= 1'b0;
      run_mask_q <= '0;
      run_pc_q   <= '0;
      link_q     <= '0;
      link_pc_q  <= '0;
      seq_op_q      <= simt_pkg::DuNext;
      seq_has_tgt_q <= 1'b0;
      seq_g_q       <= '0;
      pp_back_q     <= 1'b0;
      pp_ovf_q      <= 1'b0;
      pp_warp_q     <= '0;
      pp_tok_q      <= '0;
    end else begin
      state_q    <= state_d;
      lfsr_q     <= lfsr_d;
      cov_q      <= cov_d;
      pos_q      <= pos_d;
      merge_q    <= merge_d;
      mpos_q     <= mpos_d;
      mtok_q     <= mtok_d;
      fire_q     <= fire_d;
      rem_q      <= rem_d;
      lead1h_q   <= lead1h_d;
      first_q    <= first_d;
      run_mask_q <= run_mask_d;
      run_pc_q   <= run_pc_d;
      link_q     <= link_d;
      link_pc_q  <= link_pc_d;
      seq_op_q      <= seq_op_d;
      seq_has_tgt_q <= seq_has_tgt_d;
      seq_g_q       <= seq_g_d;
      pp_back_q     <= pp_back_d;
      pp_ovf_q      <= pp_ovf_d;
      pp_warp_q     <= pp_warp_d;
      pp_tok_q      <= pp_tok_d;
    end
  end

  // ---------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------
  // PC and active mask: the request's, the issue and the query warps'; reasons: the
  // request's and the query warp's.
  simt_ram_async #(.Width(AddrW + WarpSize), .Depth(NumWarps), .NumRd(4), .ResetValid(1'b1))
  u_pc_active (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (1'b1),
    .waddr_i (w),
    .wdata_i ({pc_d, active_d}),
    .raddr_i ({req_next_warp_i, qry_warp_i, iss_warp_i, w}),
    .rdata_o ({pc_n, active_n, qry_pc_o, qry_active_o, iss_pc_o, iss_active_o, pc_w, active_w})
  );
  logic unused_pc_n;
  assign unused_pc_n = ^pc_n;
  simt_ram_async #(.Width(WarpSize * 4), .Depth(NumWarps), .NumRd(2), .ResetValid(1'b1),
                   .ResetWord({WarpSize{simt_pkg::RsnExit}})) u_reason (  // nobody launched
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (1'b1),
    .waddr_i (w),
    .wdata_i (reason_d),
    .raddr_i ({qry_warp_i, w}),
    .rdata_o ({qry_reason_o, reason_w})
  );
  simt_ram_async #(.Width(9), .Depth(NumWarps), .NumRd(1), .ResetValid(1'b1)) u_ycount (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (1'b1),
    .waddr_i (w),
    .wdata_i (ycount_d),
    .raddr_i (w),
    .rdata_o (ycount_w)
  );
  assign q_front_o = dq_front;
  assign q_types_o = dq_types;

  // ---------------------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------------------
`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // The fast path's push, decided from the queue's state, is taken in the next cycle
      // (PUSH); beside a fast request the queue takes only PUSH's push, of another warp.
      if (fast)
        assert (!dq_pop_valid && dq_push_valid == (state_q == StPush) &&
                (state_q != StPush || w != pp_warp_q))
          else $error("divergence_unit: the queue used beside a fast push");
      if (state_q == StPush)
        assert (dq_push_valid && dq_push_ready == !pp_ovf_q && !stalled_o[pp_warp_q] &&
                !dq_acc_valid && (!pp_ovf_q || (req_valid_i && w == pp_warp_q)))
          else $error("divergence_unit: the fast path's push of warp %0d taken %b, kept %b",
                      pp_warp_q, dq_push_ready, pp_ovf_q);
      if (req_valid_i && req_op_i == simt_pkg::DuBarWake)
        assert (req_ready_o == req_wake_ready_o)
        else $error("divergence_unit: a wake's readiness %b, by its own terms %b",
                    req_ready_o, req_wake_ready_o);
      if (req_valid_i && req_op_i == simt_pkg::DuLaunch)
        assert (req_ready_o == req_done_o)
        else $error("divergence_unit: a launch's readiness %b, its sequence's end %b",
                    req_ready_o, req_done_o);
      assert (!(req_valid_i && req_op_i == simt_pkg::DuNext && req_next_warp_i != w))
        else $error("divergence_unit: a DuNext of warp %0d, its readiness read at warp %0d", w,
                    req_next_warp_i);
      if (req_valid_i && req_op_i == simt_pkg::DuNext && a_mask != '0)
        assert (req_ready_o == req_next_ready_o)
        else $error("divergence_unit: DuNext readiness %b, from the state alone %b",
                    req_ready_o, req_next_ready_o);
      assert (f_pop_any == (f_pop_wake != '0))
        else $error("divergence_unit: the fast pop wakes %h, its any-bit %b", f_pop_wake,
                    f_pop_any);
      // The sequence's leader kept one-hot is rem_q's lowest thread.
      assert (lead1h_q == (rem_q & (~rem_q + 1'b1)))
        else $error("divergence_unit: the leader %h is not the lowest of %h", lead1h_q, rem_q);
      // The fast path's readiness terms computed without the leader search agree with it.
      assert (f_any == f_found1 && f_found2 == (f_rest != '0) &&
              f_own_targets == ((f_rem & own_t) != '0))
        else $error("divergence_unit: fast-path groups without the leader search disagree");
      // Active threads have no disable reason, and disabled ones have one: the request's warp
      // and the query port's (the core queries every warp it schedules).
      if (state_q == StIdle) begin
        assert (with_reason(reason_w, simt_pkg::RsnNone) == active_w)
          else $error("divergence_unit: warp %0d active mask and reasons disagree", w);
        assert (with_reason(qry_reason_o, simt_pkg::RsnNone) == qry_active_o)
          else $error("divergence_unit: warp %0d active mask and reasons disagree", qry_warp_i);
      end
      // A pop only activates threads that wait for the token's reason.
      if (state_q == StPop && dq_pop_valid && dq_pop_ready) begin
        assert ((pop_wake & active_w) == '0)
          else $error("divergence_unit: activating a thread that is not disabled");
      end
      // update_reasons relies on a step never waking and parking the same thread.
      assert ((rs_none & rs_div) == '0)
        else $error("divergence_unit: a thread both woken and parked with DIV in one step");
      if (state_q != StIdle && state_q != StPush) begin
        assert (req_valid_i) else $error("divergence_unit: request dropped before ready");
        // The kept request is the held one (and its warp's active threads have not changed
        // before the groups are placed).
        assert (seq_op_q == req_op_i && seq_has_tgt_q == req_has_target_i)
          else $error("divergence_unit: request changed while held (op %0d, kept %0d)",
                      req_op_i, seq_op_q);
        if (state_q != StPop && state_q != StDone)  // POP may change them
          assert (seq_g_q == g_mask)
            else $error("divergence_unit: guarded threads %h, kept %h", g_mask, seq_g_q);
      end
      if (state_q == StDecode && req_op_i != simt_pkg::DuLaunch &&
          req_op_i != simt_pkg::DuBarWake) begin
        assert (a_mask != '0) else $error("divergence_unit: instruction for a warp with no active thread");
      end
    end
  end
`endif

endmodule
