// The sequencer: where the core's instruction after issue is (docs/blocks/sm.md), and the
// core's run state, fault record and %clock.
//
// One instruction per warp is in flight. IDLE starts the run, retires finished CTAs,
// launches the next CTA (LAUNCH: the launch unit), delivers a barrier wake token due (CTRL)
// or lets a warp issue. The issued instruction is in DE for a cycle (the issue unit's de_*),
// then in EXEC, from where it goes to the load/store unit
// (MEM) or the control unit (CTRL), or retires at once. DE runs next to EXEC and CHECK, so
// the next instruction is decoded while one retires; the units tell the sequencer when the
// next warp may issue (issue_try). EXEC lasts one cycle per pass on the lanes (the pass
// sequencer's exec_more_i; an FP instruction starts the FP unit in each); DE holds its
// instruction meanwhile, and the control unit sees the instruction in its last pass only. A
// fault from any unit stops the core (FAULT) with the warp and PC of the instruction that
// caused it.
module simt_sm_sequencer #(
  parameter int NumWarps = 8,
  parameter bit LsuDetach = 1'b1,  // the load/store unit may be done in CHECK (lsu_done_fast_i)
  localparam int WarpW   = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int AddrW   = 22
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      start_i,
  output simt_sm_pkg::stage_e       stage_o,
  output logic                      started_o,
  output logic [31:0]               cycle_o,         // %clock, from start

  // Launch unit.
  input  logic                      launch_cfg_bad_i,
  input  logic                      all_done_i,
  input  logic                      cta_finished_i,  // some resident CTA has finished
  input  logic                      launch_ready_i,
  input  logic                      launch_done_i,
  input  logic                      launch_wait_wake_i,
  output logic                      launch_start_o,
  output logic                      launch_active_o,
  output logic                      retire_cta_o,

  // Issue unit and DE.
  input  logic                      sched_valid_i,
  input  logic [WarpW-1:0]          sched_warp_i,
  input  logic                      issued_i,
  input  logic                      pc_bad_i,
  input  logic [AddrW-1:0]          issue_pc_i,
  input  logic                      de_v_i,
  input  logic [WarpW-1:0]          de_w_i,
  input  logic [AddrW-1:0]          de_pc_i,
  input  logic                      de_legal_i,
  input  logic                      de_simple_i,
  input  logic                      de_plain_mem_i,  // a load or store the LSU may detach
  input  logic                      de_hazard_i,     // DE waits for a load (scoreboard)
  input  logic                      hold_issue_i,    // a load's write-back waits, or an error
  output logic                      issue_try_o,
  output logic                      drained_o,       // IDLE with DE empty (registered)
  output logic                      de_go_o,
  output logic                      de_rd_o,         // DE reads its operands (de_go_o but
                                                   // for the scoreboard's wait)
  output logic                      de_back_o,       // DE's warp is given back unissued
  output logic                      de_hold_o,       // DE keeps its instruction (passes, MEM)
  output logic                      exec_o,
  output logic                      dbg_sel_o,       // nothing in flight: debug port

  // The instruction in EXEC and after.
  input  logic [WarpW-1:0]          w_i,
  input  logic [AddrW-1:0]          pc_i,
  input  logic                      is_mem_i,
  input  logic [31:0]               exec_mask_i,
  input  logic                      exec_more_i,     // another pass on the lanes follows
  input  simt_sm_pkg::fault_t       exec_fault_i,
  output logic                      lsu_start_o,
  input  logic                      lsu_done_i,
  input  logic                      lsu_done_fast_i,  // ... in its CHECK (registered state)
  input  simt_sm_pkg::fault_t       lsu_fault_i,
  input  logic [WarpW-1:0]          lsu_fault_warp_i,  // a late memory error's instruction
  input  logic [AddrW-1:0]          lsu_fault_pc_i,
  input  logic                      is_fpu_i,
  output logic                      fpu_start_o,
  input  logic                      fpu_done_i,

  // Control unit.
  input  logic                      bu_wake_valid_i,  // a barrier wake token is offered
  output simt_sm_pkg::ctl_cmd_t     ctl_o,
  output logic                      ctl_wake_o,       // deliver the wake token due
  output logic                      ctl_launch_wake_o,  // ... from the launch's BU step
  input  simt_sm_pkg::ctl_status_t  ctl_i,

  // Why the core is idle (performance counters).
  input  logic                      idle_barrier_i,  // a warp waits at a barrier
  input  logic                      idle_queue_i,    // a token queue is being serviced
  input  logic                      idle_mem_i,      // a warp waits for a load
  output logic [simt_sm_pkg::NumPerf-1:0] evt_o,

  // Fault record.
  output simt_pkg::fault_e          fault_cause_o,
  output logic [WarpW-1:0]          fault_warp_o,
  output logic [AddrW-1:0]          fault_pc_o,
  output logic                      fault_lane_valid_o,
  output logic [4:0]                fault_lane_o,
  output logic [31:0]               fault_addr_o
);

  simt_sm_pkg::stage_e stage_d, stage_q;
  logic                started_d, started_q;
  logic [31:0]         cycle_d, cycle_q;
  logic                issue_due_d, issue_due_q;  // issue's turn after a wake
  simt_sm_pkg::fault_t flt_d, flt_q;
  // Before the issue of this cycle is known (stage_pre: where the instructions in flight go).
  simt_sm_pkg::stage_e stage_pre;
  simt_sm_pkg::fault_t flt_pre;
  logic                issue_due_pre;
  logic [WarpW-1:0]    fwarp_pre;
  logic [AddrW-1:0]    fpc_pre;
  logic [WarpW-1:0]    fwarp_d, fwarp_q;
  logic [AddrW-1:0]    fpc_d, fpc_q;

  logic running;
  logic issue_ok, issue_base, wake_next, ctl_wake, ctl_launch_wake;
  assign running = started_q && stage_q != simt_sm_pkg::StDone &&
                   stage_q != simt_sm_pkg::StFault;

  // IDLE would do nothing but issue: no CTA to retire or launch, no wake token due ...
  assign issue_base = started_q && !all_done_i && !cta_finished_i && !launch_ready_i;
  assign issue_ok   = issue_base && (!bu_wake_valid_i || issue_due_q);
  // ... or IDLE would deliver a wake token (it is the wake's turn): a retiring unit goes to
  // WAKE directly. Wakes and issues alternate while both wait: a woken warp issues without
  // waiting for every wake token of its barrier, and wakes are never starved.
  assign wake_next  = issue_base && bu_wake_valid_i && !issue_due_q;

  logic to_unit;  // EXEC hands the instruction on (no fault)
  assign to_unit = exec_fault_i.cause == simt_pkg::FltNone;

  // DE hands its instruction on: alone (DECODE), while EXEC retires a simple one, while the
  // load/store unit is done with a load or store in its CHECK and it retires (MEM), or while
  // CHECK retires the one before; never while it reads or writes a register a load of its
  // warp has still to write (the scoreboard).
  // DE reads its operands whenever it would go but for the scoreboard: given back instead,
  // it leaves nothing in EXEC that needs the ports (what was there retires), so the read is
  // harmless, and the register file's read address and enables wait for no hazard (the
  // in-flight table's compare of DE's registers: the board core's critical path ran
  // through it into a bank's read address, issue #26).
  assign de_rd_o   = de_v_i &&
                     (stage_q == simt_sm_pkg::StDecode || ctl_i.check ||
                      ((stage_q == simt_sm_pkg::StExec && !exec_more_i) ||
                       stage_q == simt_sm_pkg::StMem) && ctl_i.fast);
  assign de_go_o   = de_rd_o && !de_hazard_i;
  // EXEC's instruction has passes to run, or goes to the load/store unit, which may be done
  // with it in its CHECK, the next cycle: DE waits with its instruction (a hazard is
  // checked again when it may go). Else EXEC could not retire at once after all (or
  // faults), the unit is not done in CHECK, or the scoreboard says wait: the decoded warp
  // is given back.
  logic mem_hold;
  assign mem_hold  = LsuDetach && stage_q == simt_sm_pkg::StExec && !exec_more_i &&
                     to_unit && is_mem_i && exec_mask_i != '0;
  assign de_hold_o = de_v_i && stage_q == simt_sm_pkg::StExec && (exec_more_i || mem_hold);
  // An FP instruction starts the FP unit in each of its passes in EXEC (its last included).
  assign fpu_start_o = stage_q == simt_sm_pkg::StExec && to_unit && is_fpu_i &&
                       exec_mask_i != '0;
  assign de_back_o = de_v_i && !de_go_o && !de_hold_o;
  // An instruction issued next to DE's as it goes on may wait in DE beside it: DE's completes
  // in EXEC in one cycle, or is a load or store the load/store unit may be done with in its
  // CHECK (mem_hold; given back if the unit is not).
  logic de_beside;
  assign de_beside = de_simple_i || (LsuDetach && de_plain_mem_i);

  // IDLE decides in priority order: start, done, retire a finished CTA, launch the next,
  // deliver a wake token due, else issue. (The control unit's commands come from here, apart
  // from the block that follows its answer.)
  logic idle_start, idle_fault, idle_done, idle_issue;
  always_comb begin
    idle_start     = 1'b0;
    idle_fault     = 1'b0;
    idle_done      = 1'b0;
    retire_cta_o   = 1'b0;
    launch_start_o = 1'b0;
    ctl_wake       = 1'b0;
    idle_issue     = 1'b0;
    if (stage_q == simt_sm_pkg::StIdle) begin
      if (start_i && !started_q)                                  idle_start     = 1'b1;
      // A memory error found after its instruction retired (nothing is in flight now).
      else if (lsu_fault_i.cause != simt_pkg::FltNone)            idle_fault     = 1'b1;
      else if (started_q && all_done_i)                           idle_done      = 1'b1;
      else if (started_q && cta_finished_i)                       retire_cta_o   = 1'b1;
      else if (launch_ready_i)                                    launch_start_o = 1'b1;
      else if (bu_wake_valid_i && !(issue_due_q && sched_valid_i)) ctl_wake       = 1'b1;
      else                                                        idle_issue     = 1'b1;
    end
  end
  // The barrier unit takes no request while it wakes (a section's next thread, say): the
  // launch's request waits while the wake is delivered.
  assign ctl_launch_wake = stage_q == simt_sm_pkg::StLaunch && launch_wait_wake_i;

  always_comb begin
    stage_pre     = stage_q;
    started_d     = started_q;
    cycle_d       = running ? cycle_q + 32'd1 : cycle_q;
    issue_due_pre = issue_due_q;
    flt_pre       = flt_q;
    fwarp_pre     = fwarp_q;
    fpc_pre       = fpc_q;
    lsu_start_o   = 1'b0;
    issue_try_o   = ctl_i.issue_try;
    evt_o         = '0;
    evt_o[simt_sm_pkg::PerfCycles] = running;
    if (ctl_i.issue_due) issue_due_pre = 1'b1;

    unique case (stage_q)
      simt_sm_pkg::StIdle: begin
        if (idle_start) begin
          started_d = 1'b1;
          if (launch_cfg_bad_i) begin
            flt_pre       = '0;
            flt_pre.cause = simt_pkg::FltLaunch;
            stage_pre     = simt_sm_pkg::StFault;
          end
        end else if (idle_fault) begin
          flt_pre   = lsu_fault_i;
          fwarp_pre = lsu_fault_warp_i;
          fpc_pre   = lsu_fault_pc_i;
          stage_pre = simt_sm_pkg::StFault;
        end else if (idle_done) begin
          stage_pre = simt_sm_pkg::StDone;
        end else if (launch_start_o) begin
          stage_pre = simt_sm_pkg::StLaunch;
        end else if (ctl_wake) begin
          issue_due_pre = 1'b1;
          stage_pre     = simt_sm_pkg::StCtrl;
        end else if (idle_issue) begin
          issue_try_o = 1'b1;
          if (!sched_valid_i && started_q) begin
            // Idle, and why: a warp waits at a barrier (asleep, or held at a busy id), the
            // token queue is being serviced, a warp waits for a load (or loads are in
            // flight), anything else (no warp resident).
            evt_o[simt_sm_pkg::PerfIdle]        = 1'b1;
            evt_o[simt_sm_pkg::PerfIdleBarrier] = idle_barrier_i;
            evt_o[simt_sm_pkg::PerfIdleQueue]   = !idle_barrier_i && idle_queue_i;
            evt_o[simt_sm_pkg::PerfIdleMem]     = !idle_barrier_i && !idle_queue_i && idle_mem_i;
            evt_o[simt_sm_pkg::PerfIdleOther]   = !idle_barrier_i && !idle_queue_i &&
                                                  !idle_mem_i;
          end
        end
      end
      simt_sm_pkg::StLaunch: begin
        if (launch_done_i) begin
          stage_pre = simt_sm_pkg::StIdle;
        end else if (ctl_launch_wake) begin
          stage_pre = simt_sm_pkg::StCtrl;
        end
      end
      simt_sm_pkg::StDecode: begin
        // DE's instruction goes on (the next warp issues next to a simple one), or waits
        // for a load: it is given back and the core is idle again.
        issue_try_o = issue_ok && (de_beside || de_hazard_i);
        if (de_hazard_i) stage_pre = simt_sm_pkg::StIdle;
      end
      simt_sm_pkg::StExec: begin
        if (!to_unit) begin
          flt_pre   = exec_fault_i;
          fwarp_pre = w_i;
          fpc_pre   = pc_i;
          stage_pre = simt_sm_pkg::StFault;
        end else if (exec_more_i) begin
          stage_pre = simt_sm_pkg::StExec;  // the next pass
        end else if (is_mem_i && exec_mask_i != '0) begin
          lsu_start_o = 1'b1;
          stage_pre   = simt_sm_pkg::StMem;
        end else if (is_fpu_i && exec_mask_i != '0) begin
          stage_pre = simt_sm_pkg::StFpu;
        end else begin
          stage_pre = ctl_i.busy_d ? simt_sm_pkg::StCtrl : simt_sm_pkg::StIdle;
        end
      end
      simt_sm_pkg::StMem: begin
        if (lsu_fault_i.cause != simt_pkg::FltNone) begin
          flt_pre   = lsu_fault_i;
          fwarp_pre = w_i;
          fpc_pre   = pc_i;
          stage_pre = simt_sm_pkg::StFault;
        end else if (lsu_done_i) begin
          // Done in the unit's CHECK: the instruction retires now, as a plain one from EXEC
          // (its DuNext taken), and the next warp may issue.
          stage_pre = (lsu_done_fast_i && !ctl_i.busy_d) ? simt_sm_pkg::StIdle
                                                         : simt_sm_pkg::StCtrl;
        end
      end
      simt_sm_pkg::StFpu: begin
        if (fpu_done_i) stage_pre = simt_sm_pkg::StCtrl;
      end
      simt_sm_pkg::StCtrl: begin
        if (!ctl_i.busy_d) begin
          stage_pre = ctl_i.ret_launch ? simt_sm_pkg::StLaunch : simt_sm_pkg::StIdle;
        end
      end
      simt_sm_pkg::StDone:  ;
      simt_sm_pkg::StFault: ;
      default: stage_pre = simt_sm_pkg::StFault;
    endcase

    // DE: on to EXEC (its three register operands read), or an illegal opcode faults.
    if (de_go_o) begin
      if (!de_legal_i) begin
        flt_pre       = '0;
        flt_pre.cause = simt_pkg::FltIllegal;
        fwarp_pre     = de_w_i;
        fpc_pre       = de_pc_i;
        stage_pre     = simt_sm_pkg::StFault;
      end else begin
        stage_pre = simt_sm_pkg::StExec;
      end
    end
    // A load's response waits for the register file's write port: no warp issues, so the
    // port frees within two cycles. After a memory error nothing issues any more.
    if (hold_issue_i) issue_try_o = 1'b0;
  end

  // Issue and fetch in the same cycle; a PC out of range faults once nothing is in flight.
  // (A block of its own: what is in flight next cycle does not depend on the issue.)
  // Written per stage rather than as stage_pre == IDLE: FPU never ends in IDLE and MEM only
  // on the load/store unit's done in CHECK (from its registered state), so the units' other
  // dones (the load/store unit's after its coalescer) stay off the next issue (asserted
  // equal below).
  logic idle_stays;  // IDLE stays idle (it issues, or nothing is to be done)
  logic alone;       // nothing else in flight next cycle (an issue starts DECODE)
  assign idle_stays = !(idle_start && launch_cfg_bad_i) && !idle_fault && !idle_done &&
                      !launch_start_o && !ctl_wake;
  assign alone = !de_go_o &&
                   ((stage_q == simt_sm_pkg::StIdle && idle_stays) ||
                    (stage_q == simt_sm_pkg::StLaunch && launch_done_i) ||
                    (stage_q == simt_sm_pkg::StDecode && de_hazard_i) ||
                    (stage_q == simt_sm_pkg::StExec && to_unit && !exec_more_i &&
                     !((is_mem_i || is_fpu_i) && exec_mask_i != '0) && !ctl_i.busy_d) ||
                    (stage_q == simt_sm_pkg::StMem && lsu_done_fast_i &&
                     lsu_fault_i.cause == simt_pkg::FltNone && !ctl_i.busy_d) ||
                    (stage_q == simt_sm_pkg::StCtrl && !ctl_i.busy_d && !ctl_i.ret_launch));
  // A PC out of range issues only from here, and then alone (asserted below).
  assign drained_o = stage_q == simt_sm_pkg::StIdle && !de_v_i;
  always_comb begin
    stage_d     = stage_pre;
    issue_due_d = issue_due_pre;
    flt_d       = flt_pre;
    fwarp_d     = fwarp_pre;
    fpc_d       = fpc_pre;
    if (issued_i) begin
      issue_due_d = 1'b0;
      if (pc_bad_i) begin
        flt_d       = '0;
        flt_d.cause = simt_pkg::FltPcRange;
        fwarp_d     = sched_warp_i;
        fpc_d       = issue_pc_i;
        stage_d     = simt_sm_pkg::StFault;
      end else if (alone) begin
        stage_d = simt_sm_pkg::StDecode;
      end
    end
  end

  assign ctl_o             = {exec_o && !exec_more_i, !to_unit, lsu_done_i || fpu_done_i,
                               lsu_done_fast_i && stage_q == simt_sm_pkg::StMem, issue_ok,
                               issue_base,
                               wake_next,
                               de_v_i, de_beside};
  assign ctl_wake_o        = ctl_wake;
  assign ctl_launch_wake_o = ctl_launch_wake;
  assign dbg_sel_o = stage_q == simt_sm_pkg::StIdle || stage_q == simt_sm_pkg::StLaunch ||
                     stage_q == simt_sm_pkg::StDone || stage_q == simt_sm_pkg::StFault;
  assign stage_o            = stage_q;
  assign started_o          = started_q;
  assign cycle_o            = cycle_q;
  assign launch_active_o    = stage_q == simt_sm_pkg::StLaunch;
  assign exec_o             = stage_q == simt_sm_pkg::StExec;
  assign fault_cause_o      = simt_sm_pkg::fault_cause(flt_q.cause);
  assign fault_warp_o       = fwarp_q;
  assign fault_pc_o         = fpc_q;
  assign fault_lane_valid_o = flt_q.lane_v;
  assign fault_lane_o       = flt_q.lane;
  assign fault_addr_o       = flt_q.addr;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stage_q     <= simt_sm_pkg::StIdle;
      started_q   <= 1'b0;
      cycle_q     <= '0;
      issue_due_q <= 1'b0;
      flt_q       <= '0;
      fwarp_q     <= '0;
      fpc_q       <= '0;
    end else begin
      stage_q     <= stage_d;
      started_q   <= started_d;
      cycle_q     <= cycle_d;
      issue_due_q <= issue_due_d;
      flt_q       <= flt_d;
      fwarp_q     <= fwarp_d;
      fpc_q       <= fpc_d;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // DE runs alone (DECODE), next to CHECK, or next to EXEC, which then retires a simple
      // instruction at once (or faults); two instructions of one warp are never in flight.
      // (MEM: DE held from EXEC, the load/store unit in its CHECK.)
      // (CTRL: the control unit's request was not taken in the cycle the warp in DE issued
      // beside it; DE gives it back.)
      assert (de_v_i == (stage_q == simt_sm_pkg::StDecode) ||
              (de_v_i && (stage_q == simt_sm_pkg::StExec || ctl_i.check ||
                          (LsuDetach && stage_q == simt_sm_pkg::StMem))) ||
              (de_v_i && stage_q == simt_sm_pkg::StCtrl && de_back_o))
        else $error("sm: instruction in DE in stage %0d", stage_q);
      if (de_v_i && (stage_q == simt_sm_pkg::StExec || stage_q == simt_sm_pkg::StMem ||
                     stage_q == simt_sm_pkg::StCtrl)) assert (de_w_i != w_i)
        else $error("sm: warp %0d in DE and in flight at once", w_i);
      if (de_v_i && stage_q == simt_sm_pkg::StExec)
        assert (ctl_i.fast || exec_more_i || mem_hold || stage_d == simt_sm_pkg::StFault)
        else $error("sm: EXEC next to DE does not retire in one cycle");
      // DE held next to MEM goes on or is given back in MEM's first cycle.
      if (de_v_i && stage_q == simt_sm_pkg::StMem) assert (!de_hold_o)
        else $error("sm: DE held in MEM");
      // The control unit's answer leaves out a wake commanded in this cycle: never in a
      // stage that reads it.
      if (stage_q == simt_sm_pkg::StExec || stage_q == simt_sm_pkg::StCtrl)
        assert (!ctl_wake && !ctl_launch_wake && !lsu_done_i && !fpu_done_i)
        else $error("sm: a wake or a unit's done in stage %0d", stage_q);
      assert (alone == (stage_pre == simt_sm_pkg::StIdle && !de_go_o))
        else $error("sm: alone %b, stage before the issue %0d", alone, stage_pre);
      // A PC out of range issues (and faults) only with nothing else in flight.
      if (issued_i && pc_bad_i) assert (alone)
        else $error("sm: a PC out of range issued beside stage %0d", stage_q);
      assert (!(lsu_start_o && ctl_i.busy_d))
        else $error("sm: an instruction to the load/store and control units at once");
    end
  end
`endif

endmodule
