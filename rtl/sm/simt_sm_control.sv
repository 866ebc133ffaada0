// Control: the steps that tie an instruction to the divergence unit and the barrier unit
// (simt_sm_sync), and the delivery of barrier wake tokens (ARCHITECTURE.md's rule: a thread
// waits only in its warp's token queue).
//
// Every instruction ends with a divergence-unit request: plain and control instructions
// straight from EXEC (a plain one retires there when DuNext answers in the same cycle), a
// load or store the load/store unit is done with in its CHECK likewise from that cycle
// (lsu_fast: the unit's sender puts out its requests), the
// others from DU after the load/store unit or a barrier request (BARREQ: arrivals, section
// bottoms, resets; a refused arrival holds its warp). An exit tells the barrier unit
// afterwards (EXITBU). CHECK reads the warp's new state back and retires the instruction.
// Wake tokens become divergence-unit requests (WAKE, WAKECHECK) between instructions,
// alternating with issue, or in the middle of a barrier request the barrier unit cannot
// take while it wakes (the wake returns there: ret_q). The sequencer commands the unit
// (cmd_i) and follows its answer (status_o; its busy and issue terms with the divergence
// unit's readiness last: simt_sm_control_answer).
//
// The unit owns the warps' run state (wdone: nothing left to run, wactive: has active
// threads) and shows the scheduler each warp's state, with this cycle's changes bypassed
// (simt_sm_warp_state).
module simt_sm_control #(
  parameter int NumWarps = 8,
  parameter int NumCtas  = 4,
  parameter int NumLanes = 32,
  parameter bit IssueBypass = 1'b1,  // a fast-woken warp shown to the scheduler in its wake cycle
  localparam int WarpW   = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW    = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int AddrW   = 22
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  // Sequencer.
  input  simt_sm_pkg::ctl_cmd_t     cmd_i,
  input  logic                      wake_i,          // deliver the wake token due ...
  input  logic                      launch_wake_i,   // ... from the launch's BU step
  output simt_sm_pkg::ctl_status_t  status_o,
  input  logic                      dbg_sel_i,       // the query port serves debug
  input  logic [WarpW-1:0]          dbg_warp_i,

  // The instruction in EXEC and after.
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::inst_t        inst_i,          // the guard was applied in DE
  /* verilator lint_on UNUSEDSIGNAL */
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::cls_t         cls_i,           // its classes
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [WarpW-1:0]          w_i,
  input  logic [AddrW-1:0]          pc_i,
  input  logic [31:0]               guard_i,
  input  logic [31:0]               exec_mask_i,
  input  logic [NumLanes*32-1:0]    opa_i,           // COUNT from ra: port a's group, the
                                                     // lowest executing thread's (DE's read)
  input  logic [CtaW-1:0]           cta_i,           // its resident CTA

  // Launch.
  input  logic                      launch_warp_i,   // a launched warp takes launch_slot_i
  input  logic [WarpW-1:0]          launch_slot_i,
  input  logic                      launch_du_i,     // the launch's requests, passed on
  input  logic [WarpW-1:0]          launch_du_warp_i,
  input  simt_pkg::du_req_t         launch_du_req_i,
  input  logic                      launch_bu_i,
  input  logic [CtaW-1:0]           launch_bu_cta_i,
  input  simt_pkg::bu_req_t         launch_bu_req_i,
  input  logic [NumWarps-1:0]       resident_i,

  // Divergence unit (simt_sm_sync).
  output logic                      du_valid_o,
  output logic [WarpW-1:0]          du_warp_o,
  output simt_pkg::du_req_t         du_req_o,
  input  logic                      du_ready_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_pkg::du_ans_t         du_ans_i,        // (link: checked against cal's write)
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [WarpW-1:0]          qry_warp_o,
  input  logic [31:0]               qry_active_i,
  input  logic                      qry_done_i,
  input  logic                      qry_busy_i,

  // Barrier unit (simt_sm_sync).
  output logic                      bu_valid_o,
  output logic [CtaW-1:0]           bu_cta_o,
  output simt_pkg::bu_req_t         bu_req_o,
  input  logic                      bu_ready_i,
  input  simt_pkg::bu_ans_t         bu_ans_i,
  input  logic                      wake_valid_i,
  output logic                      wake_ready_o,
  input  logic [WarpW-1:0]          wake_slot_i,
  input  logic [AddrW-1:0]          wake_resume_i,

  // Issue.
  output logic [NumWarps-1:0]       warp_valid_o,
  output logic [NumWarps-1:0]       warp_active_o,
  output logic                      retire_o,        // the instruction in flight retires
  output logic                      retired_o,       // ... and counts (retire_valid_o)
  output logic                      woken_o,         // a sleeping warp woken this cycle
  output logic [AddrW-1:0]          woken_pc_o,
  output logic [31:0]               woken_mask_o,
  output logic                      hold_o,          // the arrival was refused

  // Warp state, trace, events.
  output logic [NumWarps-1:0]       wdone_o,
  output logic [NumWarps-1:0]       wactive_o,
  output logic                      trace_wake_late_o,
  output logic                      trace_bar_accept_o,
  output logic                      trace_bu_req_o,
  output logic [simt_sm_pkg::NumPerf-1:0] evt_o      // performance events (PerfThreads: +threads)
);

  simt_sm_pkg::ctrl_state_e state_d, state_q;
  simt_sm_pkg::ctrl_ret_e   ret_d, ret_q;      // where a wake in a barrier request returns
  simt_sm_pkg::ctrl_state_e state_nx;          // ... before the wake commands
  simt_sm_pkg::ctrl_ret_e   ret_nx;
  logic [WarpW-1:0]         wake_w_d, wake_w_q;
  simt_pkg::du_op_e         du_op_d, du_op_q;
  logic [31:0]              du_guard_d, du_guard_q;
  logic                     bu_exit_d, bu_exit_q;  // exit: tell the barrier unit afterwards
  logic                     counted_d, counted_q;  // counts as an issued instruction

  // The query port: the warp in flight or just woken (its state read back), else debug.
  assign qry_warp_o = dbg_sel_i ? dbg_warp_i :
                      (state_q == simt_sm_pkg::CtWakeCheck) ? wake_w_q : w_i;

  // EXEC hands plain and control instructions to the divergence unit in the same cycle
  // (memory and barrier instructions and faults go elsewhere first); a plain one retires
  // then (fast).
  logic go;  // EXEC hands its instruction to this unit (not a memory or FP one, no fault)
  assign go = cmd_i.exec && !cmd_i.exec_fault && !((cls_i.mem || cls_i.fpu) && exec_mask_i != '0);
  logic direct, ex_simple, fast, issue_try, issue_due;
  logic mem_direct;  // a load or store done in the load/store unit's CHECK: DuNext now
  // The wake token offered goes to the divergence unit in this cycle: from WAKE, or already
  // from CHECK when a token is due, nothing waits in DE and the checked warp is not done
  // whatever its queue holds.
  logic wake_req;
  assign wake_req = state_q == simt_sm_pkg::CtWake ||
                    (state_q == simt_sm_pkg::CtCheck && cmd_i.wake_next && !cmd_i.de_v &&
                     qry_busy_i);
  // (A memory instruction without executing threads is a plain one: the next warp may
  // wait in DE beside it, as beside any load or store.)
  assign direct    = cmd_i.exec && !cmd_i.exec_fault && !(cls_i.mem && exec_mask_i != '0) &&
                     !cls_i.fpu &&
                     !cls_i.arrive &&
                     !(cls_i.bottom && exec_mask_i != '0) && inst_i.op != simt_pkg::OpBarReset;
  assign ex_simple = direct && !cls_i.ctrl;
  logic ex_exit;  // EXEC's instruction is an exit with executing threads (EXITBU follows)
  assign ex_exit   = inst_i.op == simt_pkg::OpExit && exec_mask_i != '0;
  assign mem_direct = cmd_i.lsu_fast && state_q == simt_sm_pkg::CtIdle;
  // Whether this cycle's request is taken: a plain instruction's from the divergence unit's
  // state alone, so that its retirement and the next issue beside it wait for none of the
  // unit's fast-path logic; a wake's from the unit's wake terms alone, so that the barrier
  // unit's handshake stays off the other operations' fast path (both asserted equal to the
  // unit's answer); any other's from the unit's answer.
  logic taken;
  assign taken     = (ex_simple || mem_direct) ? du_ans_i.next_ready :
                     (state_q == simt_sm_pkg::CtWake || state_q == simt_sm_pkg::CtCheck) ?
                     du_ans_i.wake_ready : du_ready_i;
  assign fast      = (ex_simple || mem_direct) && taken;

  // A wake ends: back where it was served (ret_q), else idle.
  simt_sm_pkg::ctrl_state_e wake_ret_state;
  always_comb begin
    unique case (ret_q)
      simt_sm_pkg::RetBarReq: wake_ret_state = simt_sm_pkg::CtBarReq;
      simt_sm_pkg::RetExitBu: wake_ret_state = simt_sm_pkg::CtExitBu;
      default:                wake_ret_state = simt_sm_pkg::CtIdle;
    endcase
  end

  // ---- Next state ---------------------------------------------------------------------------
  always_comb begin
    state_nx   = state_q;
    ret_nx     = ret_q;
    wake_w_d   = wake_w_q;
    du_op_d    = du_op_q;
    du_guard_d = du_guard_q;
    bu_exit_d  = bu_exit_q;
    counted_d  = counted_q;

    du_valid_o      = 1'b0;
    bu_valid_o      = 1'b0;
    bu_req_o.op     = simt_pkg::BuArrive;
    bu_req_o.count  = '0;
    bu_cta_o        = cta_i;
    issue_try       = 1'b0;
    issue_due       = 1'b0;
    retire_o        = 1'b0;
    hold_o          = 1'b0;
    evt_o           = '0;

    if (launch_du_i) du_valid_o = 1'b1;
    if (launch_bu_i) begin
      bu_valid_o = 1'b1;
      bu_req_o   = launch_bu_req_i;
      bu_cta_o   = launch_bu_cta_i;
    end
    if (cmd_i.exec) begin
      counted_d  = 1'b1;
      bu_exit_d  = 1'b0;
      du_op_d    = simt_pkg::DuNext;
      du_guard_d = guard_i;
      if (cls_i.ctrl) begin
        du_op_d   = simt_sm_pkg::ctrl_du_op(inst_i.op);
        bu_exit_d = ex_exit;
      end
    end

    unique case (state_q)
      simt_sm_pkg::CtIdle: begin
        if (go) begin
          // An arrival without participants still tells the unit (a TIMEOUT may be measured
          // from any thread's arrival); it claims nothing and nobody sleeps.
          if ((cls_i.arrive || cls_i.bottom || inst_i.op == simt_pkg::OpBarReset) &&
              (exec_mask_i != '0 || cls_i.arrive || inst_i.op == simt_pkg::OpBarReset)) begin
            state_nx = simt_sm_pkg::CtBarReq;
          end else begin
            state_nx = simt_sm_pkg::CtDu;  // unless the direct request is taken (below)
          end
        end
        if (cmd_i.lsu_done) state_nx = simt_sm_pkg::CtDu;
      end

      simt_sm_pkg::CtBarReq: begin
        bu_valid_o  = 1'b1;
        bu_req_o.op = cls_i.arrive ? simt_pkg::BuArrive :
                      cls_i.bottom ? simt_pkg::BuBottom : simt_pkg::BuReset;
        if (inst_i.sub[0]) begin  // COUNT: immediate, or ra of the lowest participating lane
          bu_req_o.count =
              inst_i.imm_b ? inst_i.imm[11:0]
                           : opa_i[(32'(simt_sm_pkg::lowest(exec_mask_i)) % NumLanes)*32 +: 12];
        end
        if (bu_ready_i) begin
          state_nx = simt_sm_pkg::CtDu;
          if (cls_i.arrive) begin
            evt_o[simt_sm_pkg::PerfArrivals] = exec_mask_i != '0;
            if (bu_ans_i.refused) begin
              // Held until the id is free; the instruction issues again then.
              evt_o[simt_sm_pkg::PerfRefused] = 1'b1;
              hold_o    = 1'b1;
              counted_d = 1'b0;
              state_nx  = simt_sm_pkg::CtCheck;
            end else if (!bu_ans_i.pass && exec_mask_i != '0) begin
              du_op_d    = simt_pkg::DuBarSleep;
              du_guard_d = exec_mask_i;
            end
          end else if (cls_i.bottom && bu_ans_i.sleep) begin
            // The thread inside the section sleeps at its bottom (blocking bottom).
            du_op_d    = simt_pkg::DuBarSleep;
            du_guard_d = 32'd1 << bu_ans_i.sleep_lane;
          end
        end else if (wake_valid_i) begin
          // The unit may be waking threads before it takes requests again.
          ret_nx   = simt_sm_pkg::RetBarReq;
          state_nx = simt_sm_pkg::CtWake;
        end
      end

      simt_sm_pkg::CtDu: ;  // the request is below

      simt_sm_pkg::CtExitBu: begin
        // Exits shrink the default COUNT of the CTA's barriers.
        bu_valid_o = 1'b1;
        bu_req_o.op    = simt_pkg::BuExit;
        bu_req_o.count = 12'(simt_sm_pkg::popcount32(exec_mask_i));
        if (bu_ready_i) begin
          state_nx = simt_sm_pkg::CtCheck;
        end else if (wake_valid_i) begin
          ret_nx   = simt_sm_pkg::RetExitBu;
          state_nx = simt_sm_pkg::CtWake;
        end
      end

      simt_sm_pkg::CtCheck: begin
        retire_o = 1'b1;  // (the warp's new state: simt_sm_warp_state)
        state_nx = simt_sm_pkg::CtIdle;
        evt_o[simt_sm_pkg::PerfInsts]   = counted_q;
        evt_o[simt_sm_pkg::PerfThreads] = counted_q;
        // The next warp issues in this cycle when IDLE would only issue and the instruction
        // in DE, if any, is simple; the scheduler sees this warp's new state (warp_valid_o).
        // A wake token due is delivered now instead (unless this warp is done: IDLE may
        // retire its CTA first); a sleeping warp's wake completes in this cycle and the next
        // warp (the woken one, say) issues at once, else WAKE carries the request on.
        issue_try = cmd_i.issue_ok && (!cmd_i.de_v || cmd_i.de_simple);
        if (wake_req) begin
          ret_nx    = simt_sm_pkg::RetNone;
          issue_due = 1'b1;
          issue_try = 1'b0;
          state_nx  = simt_sm_pkg::CtWake;
          if (du_ans_i.wake_ready) begin  // (the woken warp runs again: warp_wake)
            state_nx  = simt_sm_pkg::CtIdle;
            issue_try = cmd_i.issue_base;
          end
        end
      end

      simt_sm_pkg::CtWake: begin
        evt_o[simt_sm_pkg::PerfDuStall] = !du_ans_i.wake_ready;
        if (du_ans_i.wake_ready) begin
          if (du_ans_i.wake_fast) begin
            // The warp slept with no active thread and now runs the woken ones: nothing to
            // read back, and the next warp (the woken one, say) issues now (warp_wake).
            state_nx  = wake_ret_state;
            issue_try = ret_q == simt_sm_pkg::RetNone && cmd_i.issue_ok;
          end else begin
            state_nx = simt_sm_pkg::CtWakeCheck;
          end
        end
      end

      simt_sm_pkg::CtWakeCheck: begin
        state_nx = wake_ret_state;  // (the warp's new state: simt_sm_warp_state)
        // The next warp (the woken one, say: its new state is bypassed to the scheduler)
        // issues now when IDLE would only issue.
        issue_try = ret_q == simt_sm_pkg::RetNone && cmd_i.issue_ok;
      end

      default: state_nx = simt_sm_pkg::CtIdle;
    endcase

    // The wake token offered becomes a divergence-unit request (from WAKE, or already from
    // CHECK); the barrier unit lets it go when the divergence unit takes it.
    if (wake_req) begin
      du_valid_o   = 1'b1;
      wake_w_d     = wake_slot_i;
      evt_o[simt_sm_pkg::PerfWakes] = du_ans_i.wake_ready;
    end

    // The instruction's divergence-unit request: from EXEC already for plain and control
    // instructions (DuNext answers in the same cycle), else from DU.
    // A load or store done in CHECK likewise (not taken: DU asks again).
    if (state_q == simt_sm_pkg::CtDu || direct || mem_direct) begin
      du_valid_o      = 1'b1;
      evt_o[simt_sm_pkg::PerfDuStall] = !du_ready_i && !direct && !mem_direct;
      if (taken) begin
        evt_o[simt_sm_pkg::PerfYields] = inst_i.op == simt_pkg::OpYield && du_ans_i.yield_fired;
        if (ex_simple || mem_direct) begin
          // Retires here; the next warp issues when IDLE would only issue and the
          // instruction in DE (if any) is simple too.
          retire_o  = 1'b1;
          state_nx  = simt_sm_pkg::CtIdle;
          evt_o[simt_sm_pkg::PerfInsts]   = 1'b1;
          evt_o[simt_sm_pkg::PerfThreads] = 1'b1;
          issue_try = cmd_i.issue_ok && (!cmd_i.de_v || cmd_i.de_simple);
          if (cmd_i.wake_next && !cmd_i.de_v) begin
            ret_nx    = simt_sm_pkg::RetNone;
            issue_due = 1'b1;
            state_nx  = simt_sm_pkg::CtWake;
          end
        end else if (direct ? ex_exit : bu_exit_q) begin
          state_nx = simt_sm_pkg::CtExitBu;
        end else begin
          state_nx = simt_sm_pkg::CtCheck;  // (the next warp issues now: below)
        end
      end
    end
    // Any other instruction's request but an exit's: CHECK comes next if it is taken, and the
    // next warp issues now, taken or not, to be decoded during CHECK. Whether the request is
    // taken is the divergence unit's fast path, its deepest answer: the issue does not wait
    // for it (issue #26, 2026-12-07). If it is not taken the control unit stays in DU, and
    // the sequencer gives the issued warp back from DE the next cycle (as after a hazard);
    // the warp issues again then.
    if ((direct && !ex_simple && !ex_exit) ||
        (state_q == simt_sm_pkg::CtDu && !bu_exit_q)) begin
      issue_try = cmd_i.issue_ok;
    end
  end

  // The request's fields by the unit's state alone; du_valid_o above says whether there is
  // one. In WAKE and CHECK they are the wake token's even when none is offered: whether a
  // token is offered (the barrier unit's deepest output) then enters the divergence unit as
  // its request's validity only, not through every term of its fast path. (The token's
  // threads and resume address go from the barrier unit to the divergence unit's wake ports
  // directly, in simt_sm_sync.)
  always_comb begin
    du_req_o.op         = du_op_q;
    du_req_o.guard      = du_guard_q;
    du_req_o.has_target = 1'b1;
    du_req_o.target     = inst_i.imm[AddrW-1:0];
    du_warp_o           = w_i;
    if (state_q == simt_sm_pkg::CtWake || state_q == simt_sm_pkg::CtCheck) begin
      du_req_o.op = simt_pkg::DuBarWake;  // its threads and resume address: see simt_sm_sync
      du_warp_o   = wake_slot_i;
    end else if (launch_du_i) begin
      du_req_o  = launch_du_req_i;
      du_warp_o = launch_du_warp_i;
    end else begin
      // The instruction's: from EXEC (direct), else from DU.
      if (state_q == simt_sm_pkg::CtIdle) begin
        du_req_o.op    = cls_i.ctrl ? simt_sm_pkg::ctrl_du_op(inst_i.op) : simt_pkg::DuNext;
        du_req_o.guard = guard_i;
      end
      du_req_o.has_target = (inst_i.op == simt_pkg::OpSync || inst_i.op == simt_pkg::OpBrk ||
                             inst_i.op == simt_pkg::OpCont) ? inst_i.imm_b : 1'b1;
    end
  end

  // A wake token due is delivered from IDLE or the launch's barrier-unit step (a block of
  // its own: the requests above do not depend on the wake commands).
  always_comb begin
    state_d = state_nx;
    ret_d   = ret_nx;
    if (state_q == simt_sm_pkg::CtIdle && (wake_i || launch_wake_i)) begin
      ret_d   = launch_wake_i ? simt_sm_pkg::RetLaunch : simt_sm_pkg::RetNone;
      state_d = simt_sm_pkg::CtWake;
    end
  end

  // The answer to the sequencer, with whether the request is taken last
  // (simt_sm_control_answer; asserted equal to the next-state block's below).
  logic ans_busy, ans_try;  // the answer's busy_d and issue_try
  // Whether the request is taken, as far as the answer depends on it: a wake's by its wake
  // terms (WAKE, CHECK), else a plain instruction's by the unit's state (IDLE). Any other
  // request (a control instruction's, in IDLE or DU) leaves the unit busy and lets the next
  // warp issue, taken or not, so the fast path's answer reaches the control unit's next
  // state only, not the sequencer.
  logic ans_taken;
  assign ans_taken = (state_q == simt_sm_pkg::CtWake || state_q == simt_sm_pkg::CtCheck) ?
                     du_ans_i.wake_ready : du_ans_i.next_ready;
  simt_sm_control_answer u_answer (
    .state_i     (state_q),
    .ret_i       (ret_q),
    .cmd_i       (cmd_i),
    .go_i        (go),
    .direct_i    (direct),
    .simple_i    (ex_simple),
    .exit_i      (ex_exit),
    .wake_req_i  (wake_req),
    .bu_exit_i   (bu_exit_q),
    .wake_fast_i (du_ans_i.wake_fast),
    .taken_i     (ans_taken),
    .busy_o      (ans_busy),
    .try_o       (ans_try)
  );

  logic ret_launch;  // a wake served from the launch ends: back to LAUNCH
  assign ret_launch = ret_q == simt_sm_pkg::RetLaunch &&
                      (state_q == simt_sm_pkg::CtWakeCheck ||
                       (state_q == simt_sm_pkg::CtWake && du_ans_i.wake_fast));
  assign status_o   = {ans_busy, ret_launch, state_q == simt_sm_pkg::CtCheck, fast, ans_try,
                       issue_due};
  assign retired_o  = evt_o[simt_sm_pkg::PerfInsts];

  // cal's link register is written in EXEC by the execute unit, from the instruction alone;
  // the divergence unit's link must be the same (asserted below).
  logic [AddrW-1:0] link_pc;
  assign link_pc = pc_i + 1'b1;
  // (Outside the block above: the barrier unit's ready depends on it.)
  assign wake_ready_o = wake_req && du_ans_i.wake_ready;

  // The warps' run state and the scheduler's view (simt_sm_warp_state): a launch, the state
  // read back in CHECK (the instruction's warp) and WAKECHECK (the woken one), a woken warp
  // running again (WAKE or CHECK, without a read-back).
  logic warp_wake;
  assign warp_wake = (state_q == simt_sm_pkg::CtCheck && wake_req && du_ans_i.wake_ready) ||
                     (state_q == simt_sm_pkg::CtWake && du_ans_i.wake_ready && du_ans_i.wake_fast);
  simt_sm_warp_state #(.NumWarps(NumWarps)) u_warps (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .launch_i      (launch_warp_i),
    .launch_slot_i (launch_slot_i),
    .check_i       (state_q == simt_sm_pkg::CtCheck || state_q == simt_sm_pkg::CtWakeCheck),
    .check_warp_i  ((state_q == simt_sm_pkg::CtWakeCheck) ? wake_w_q : w_i),
    .qry_active_i  (qry_active_i),
    .qry_done_i    (qry_done_i),
    .wake_i        (warp_wake),
    .woken_i       (woken_o),
    .wake_slot_i   (wake_slot_i),
    .resident_i    (resident_i),
    .warp_valid_o  (warp_valid_o),
    .warp_active_o (warp_active_o),
    .wdone_o       (wdone_o),
    .wactive_o     (wactive_o)
  );
  // (Without IssueBypass the woken warp is the scheduler's from the next cycle, through
  // warp_state's registers and the divergence unit's PC: the scheduler's pick then waits for
  // nothing of the wake's chain from the barrier unit through the divergence unit's answer.)
  assign woken_o      = IssueBypass &&
                        (state_q == simt_sm_pkg::CtWake || state_q == simt_sm_pkg::CtCheck) &&
                        du_ans_i.wake_fast;
  assign woken_pc_o   = wake_resume_i;
  assign woken_mask_o = du_ans_i.wake_mask;

  // (Served during an exit's barrier request, or in the CHECK that retires an instruction:
  // after that instruction.)
  assign trace_wake_late_o   = ret_q == simt_sm_pkg::RetExitBu ||
                               (state_q == simt_sm_pkg::CtCheck && counted_q);
  assign trace_bar_accept_o  = state_q == simt_sm_pkg::CtBarReq && bu_ready_i &&
                               cls_i.arrive && !bu_ans_i.refused;
  // (A refused arrival changes nothing in the unit and does not retire: not counted.)
  assign trace_bu_req_o      = (state_q == simt_sm_pkg::CtBarReq ||
                                state_q == simt_sm_pkg::CtExitBu) && bu_ready_i &&
                               !(state_q == simt_sm_pkg::CtBarReq && cls_i.arrive &&
                                 bu_ans_i.refused);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= simt_sm_pkg::CtIdle;
      ret_q      <= simt_sm_pkg::RetNone;
      wake_w_q   <= '0;
      du_op_q    <= simt_pkg::DuNext;
      du_guard_q <= '0;
      bu_exit_q  <= 1'b0;
      counted_q  <= 1'b0;
    end else begin
      state_q    <= state_d;
      ret_q      <= ret_d;
      wake_w_q   <= wake_w_d;
      du_op_q    <= du_op_d;
      du_guard_q <= du_guard_d;
      bu_exit_q  <= bu_exit_d;
      counted_q  <= counted_d;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (state_q == simt_sm_pkg::CtWake) assert (resident_i[wake_slot_i])
        else $error("sm: barrier wake for a warp that is not resident");
      // A blocking bottom puts to sleep the thread in the section, which is in this warp.
      if (state_q == simt_sm_pkg::CtBarReq && bu_ready_i && cls_i.bottom && bu_ans_i.sleep)
        assert (exec_mask_i[bu_ans_i.sleep_lane])
        else $error("sm: bottom sleep of a thread that is not in the section");
      if (du_valid_o && du_ready_i && du_req_o.op == simt_pkg::DuCal)
        assert (du_ans_i.link_mask == exec_mask_i && du_ans_i.link_value == link_pc)
        else $error("sm control: cal's link %h@%h, the divergence unit's %h@%h",
                    exec_mask_i, link_pc, du_ans_i.link_mask, du_ans_i.link_value);
      if (wake_req) assert (du_ans_i.wake_ready == du_ready_i)
        else $error("sm control: a wake taken %b, by its own terms %b", du_ready_i,
                    du_ans_i.wake_ready);
      // ... and it is a DuNext of the instruction's warp, whose readiness next_ready is.
      assert (!(ex_simple || mem_direct) ||
              (du_valid_o && du_warp_o == w_i && du_req_o.op == simt_pkg::DuNext))
        else $error("sm control: a plain instruction's request for warp %0d, op %0d", du_warp_o,
                    du_req_o.op);
      if ((direct && ex_simple) || mem_direct) assert (du_ans_i.next_ready == du_ready_i)
        else $error("sm control: a plain instruction's request taken %b, by the state %b",
                    du_ready_i, du_ans_i.next_ready);
      // The answer with the readiness last is the next-state block's.
      assert (!(cmd_i.lsu_fast && (!cmd_i.lsu_done || state_q != simt_sm_pkg::CtIdle)))
        else $error("sm control: a fast done of the load/store unit while busy");
      assert (ans_busy == (state_nx != simt_sm_pkg::CtIdle &&
                           !(cmd_i.lsu_done && !cmd_i.lsu_fast)) &&
              ans_try == issue_try &&
              ret_launch == ((state_q == simt_sm_pkg::CtWake ||
                              state_q == simt_sm_pkg::CtWakeCheck) &&
                             ret_q == simt_sm_pkg::RetLaunch && state_nx == simt_sm_pkg::CtIdle))
        else $error("sm control: answer busy %b try %b ret_launch %b, next state %0d try %b",
                    ans_busy, ans_try, ret_launch, state_nx, issue_try);
      assert (!(cmd_i.exec && state_q != simt_sm_pkg::CtIdle))
        else $error("sm control: an instruction in EXEC while busy");
      // The launch's wake comes with its barrier-unit request, which the unit refuses while it
      // wakes (the request is made again after the wake).
      assert ($onehot0({cmd_i.exec, cmd_i.lsu_done, wake_i, launch_wake_i || launch_bu_i, launch_du_i}))
        else $error("sm control: two commands in one cycle (exec %b lsu_done %b wake %b launch wake %b du %b bu %b)",
                    cmd_i.exec, cmd_i.lsu_done, wake_i, launch_wake_i, launch_du_i, launch_bu_i);
      assert (!launch_wake_i || (launch_bu_i && !bu_ready_i))
        else $error("sm control: a launch's wake without its refused barrier-unit request");
      assert (!((launch_du_i || launch_bu_i) && state_q != simt_sm_pkg::CtIdle))
        else $error("sm control: a launch request while busy");
    end
  end
`endif

endmodule
