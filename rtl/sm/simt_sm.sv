// The SM core: a top that wires its units (docs/blocks/sm.md). Each unit is a file of its
// own under rtl/sm/:
//
//   simt_sm_sequencer  where the instruction after issue is; run state, faults, %clock
//   simt_sm_launch     CTA launch and retirement, the warp-slot tables (seed 003's seam)
//   simt_sm_issue      warp scheduler, fetch, held warps (the barrier scoreboard)
//   simt_sm_decode     decode and operand read: register file, predicates, params
//   simt_sm_pass       the pass sequencer: a warp's 32 threads on NumLanes lanes
//   simt_sm_execute    the NumLanes ALU lanes (simt_sm_lane_alu)
//   simt_sm_lsu        loads, stores and atomics; shared memory; the global-memory port
//   simt_sm_control    divergence unit and barrier unit steps, wake delivery, warp state
//   simt_sm_perf       performance counters
//
// One instruction per warp is in flight: issue (the scheduler picks a warp, the core
// fetches), decode (ra and rb from the register file's two read ports) and execute overlap
// for different warps, so simple instructions retire one per cycle. A global memory
// instruction retires once its requests are sent; its loaded words come back while warps go
// on issuing, and an instruction that reads or writes a register still to be loaded waits
// (the scoreboard, simt_sm_lsu_inflight). Every instruction's control behaviour goes
// to the divergence unit (pc + 1 for plain instructions). Barrier instructions go to the
// barrier unit first; its wake tokens become divergence-unit requests between instructions
// (ARCHITECTURE.md's rule: a thread waits only in its warp's token queue).
//
// The host loads code and params through write ports, sets the launch through cfg_* (stable
// while running) and pulses start_i. The core launches CTAs in %ctaid order onto the lowest
// free warp slots as the ISA model does, and raises done_o when all have finished or fault_o
// with a cause, warp, pc, lane and address. Token-queue overflows raise exc_valid_o; the
// runtime re-centres the queue through the mnt_* port (seed 002).
module simt_sm #(
  parameter int NumWarps    = simt_pkg::NumWarps,
  parameter int NumCtas     = simt_pkg::NumCtas,     // resident CTAs
  // Warps a CTA may have (1..NumWarps): the barrier unit keeps per-thread state for NumCtas
  // CTAs of CtaWarps warps; a launch of larger CTAs faults (FltLaunch). Below NumWarps on a
  // core with several resident CTAs of a few warps each (the board's 2 x 4).
  parameter int CtaWarps    = NumWarps,
  parameter int QueueDepth  = simt_pkg::QueueDepth,
  parameter bit DequeMode   = 1'b1,
  parameter int NumBarSlots = simt_pkg::NumBarSlots,
  parameter int ImemDepth   = 4096,                  // 64-bit instructions
  parameter int ParamWords  = 64,
  parameter int SharedWords = 1024,                  // 32-bit words per resident CTA
  parameter int SharedBanks = 32,                    // shared-memory banks (a power of 2)
  parameter int LineBytes   = simt_mem_pkg::LineBytes, // the memory port's line
  parameter int MemIdW      = simt_mem_pkg::IdW,     // the load/store unit's request ids
  parameter int LsuSlots    = 32,                    // global instructions in flight
  // A global access of one thread group is done when its addresses passed the check (a v4
  // store once gathered); its requests go out from the load/store unit's sender, a queue of
  // LsuSendDepth such accesses, while the core goes on.
  parameter bit LsuDetach   = 1'b1,
  parameter int LsuSendDepth = 4,                    // ... the sender's queue of such accesses
  parameter bit HasFpu      = 1'b1,                  // FP32 lanes; 0: FP opcodes fault
  parameter int L1Bytes     = 16384,                 // L1 data cache (0: none)
  parameter int L1Ways      = 4,
  parameter int L1Mshrs     = 128,  // (docs/blocks/sm.md's parameter table: why 128)
  parameter int NumLanes    = 32,                    // physical ALU lanes: 32, 16 or 8
  // FP lanes (with HasFpu): NumLanes or a divisor of it; an FP instruction takes a pass per
  // group of FpLanes threads (an FP lane is about four ALU lanes' area).
  parameter int FpLanes     = NumLanes,
  // The divergence unit's fast path for threads with their own targets (brx, jmx, ret):
  // 0 takes those through its sequence (same results, more cycles; the FPGA tops' choice,
  // about 4,800 fewer ECP5 LUT4 at 1 warp).
  parameter bit FastThreadTargets = 1'b1,
  // Warps whose state changes late in a cycle may be picked in that cycle: one woken by a
  // fast wake (no thread of it was active: a barrier release and a blocking section's
  // hand-off in 2 cycles) and one given back from DE (the scoreboard, a request the
  // divergence unit did not take). 0 shows both to the scheduler from the next cycle (the
  // FPGA tops' choice: a release and a hand-off in 3 cycles, a given-back warp a cycle later),
  // which takes the scheduler's pick off the chains from the barrier unit's wake and from
  // DE's hazard check (the 2 CTA x 4 warp board core's longest paths, issue #26).
  parameter bit IssueBypass = 1'b1,
  // Yosys's ram_style for the barrier table's thread state (a RAM per warp of a CTA, one word
  // per CTA): "auto", or "distributed" for LUT RAM on a part that has it (the ECP5 board).
  parameter     BarRamStyle = "auto",
  // The port's ids: the load/store unit's, or the L1's (fills and forwarded requests).
  localparam int L1MshrW    = (L1Mshrs > 1) ? $clog2(L1Mshrs) : 1,
  localparam int PortIdW    = (L1Bytes > 0) ? 1 + ((MemIdW > L1MshrW) ? MemIdW : L1MshrW) : MemIdW,
  localparam int WarpW      = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW       = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int ImemAW     = $clog2(ImemDepth),
  localparam int ParamAW    = $clog2(ParamWords),
  localparam int ShAW       = $clog2(NumCtas * SharedWords),
  localparam int RfAW       = WarpW + 5,
  localparam int PtrW       = $clog2(QueueDepth + 1),
  localparam int NumEnt     = NumCtas * 16,
  localparam int AddrW      = 22                     // instruction addresses (token field)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  // Host: code and params, launch configuration, start.
  input  logic                     imem_we_i,
  input  logic [ImemAW-1:0]        imem_waddr_i,
  input  logic [63:0]              imem_wdata_i,
  input  logic                     param_we_i,
  input  logic [ParamAW-1:0]       param_waddr_i,
  input  logic [31:0]              param_wdata_i,
  input  logic [ImemAW:0]          cfg_code_size_i,     // instructions loaded
  input  logic [ParamAW:0]         cfg_param_words_i,
  input  logic [15:0]              cfg_ntid_i,          // threads per CTA
  input  logic [15:0]              cfg_nctaid_i,        // CTAs in the grid
  input  logic [31:0]              cfg_global_bytes_i,  // size of global memory
  input  logic [31:0]              cfg_shared_bytes_i,  // .shared per CTA
  input  logic                     cfg_stack_i,         // divergence: stack baseline
  input  logic [15:0]              cfg_lfsr_seed_i,     // yield.p LFSR seed (--seed), loaded at start
  input  simt_pkg::sched_policy_e  cfg_policy_i,
  input  logic [15:0]              cfg_static_limit_i,  // barrier static-too-long limit
  input  logic [1:0]               cfg_tmo_origin_i,    // impatient TIMEOUT origin (0: ISA.md's)
  input  logic [31:0]              cfg_bar_prio_i,      // slot-arbiter priority of id i at [2i+1:2i]
  input  logic                     start_i,
  output logic                     busy_o,
  output logic                     done_o,
  output logic                     fault_o,
  output simt_pkg::fault_e         fault_cause_o,
  output logic [WarpW-1:0]         fault_warp_o,
  output logic [AddrW-1:0]         fault_pc_o,
  output logic                     fault_lane_valid_o,
  output logic [4:0]               fault_lane_o,
  output logic [31:0]              fault_addr_o,

  // Global memory (and nothing else): the line-wide port of docs/blocks/mem_port.md.
  output logic                     mem_req_valid_o,
  input  logic                     mem_req_ready_i,
  output logic [PortIdW-1:0]       mem_req_id_o,
  output logic                     mem_req_we_o,
  output logic [3:0]               mem_req_amo_o,       // simt_mem_pkg::amo_e
  output logic [31:0]              mem_req_addr_o,      // the line's byte address
  output logic [LineBytes-1:0]     mem_req_be_o,
  output logic [LineBytes*8-1:0]   mem_req_wdata_o,
  output logic [31:0]              mem_req_cmp_o,
  input  logic                     mem_rsp_valid_i,
  output logic                     mem_rsp_ready_o,
  input  logic [PortIdW-1:0]       mem_rsp_id_i,
  input  logic                     mem_rsp_err_i,
  input  logic [LineBytes*8-1:0]   mem_rsp_rdata_i,

  // Token-queue exception and the runtime's maintenance port (simt_divergence_unit).
  output logic                     exc_valid_o,
  output logic [WarpW-1:0]         exc_warp_o,
  output logic                     exc_back_o,
  output logic [PtrW-1:0]          q_head_o,
  output logic [PtrW-1:0]          q_tail_o,
  input  logic                     mnt_valid_i,
  input  simt_pkg::mnt_op_e        mnt_op_i,
  input  logic [WarpW-1:0]         mnt_warp_i,
  input  logic [PtrW-2:0]          mnt_idx_i,
  input  logic [63:0]              mnt_wdata_i,
  input  logic [PtrW-1:0]          mnt_head_i,
  input  logic [PtrW-1:0]          mnt_tail_i,
  output logic                     mnt_ready_o,
  output logic                     mnt_rvalid_o,
  output logic [63:0]              mnt_rdata_o,

  // Retired instructions (one per issue; the co-simulation and trace follow them).
  output logic                     retire_valid_o,
  output logic [WarpW-1:0]         retire_warp_o,
  output logic [AddrW-1:0]         retire_pc_o,
  output logic [31:0]              retire_exec_o,
  output logic [31:0]              retire_active_o,
  // Trace for the co-simulation: register-file writes of the instruction in flight, and
  // barrier wake tokens as the divergence unit takes them.
  output logic                     trace_inflight_o,
  output logic [31:0]              trace_rf_we_o,
  output logic [32*RfAW-1:0]       trace_rf_waddr_o,    // thread t's register: [t*RfAW +: RfAW]
  output logic [32*32-1:0]         trace_rf_wdata_o,
  output logic                     trace_rf_late_o,     // ... a global load's late write-back
  output logic                     trace_mem_quiet_o,   // no load or FP result in flight
  output logic                     trace_cta_retire_o,  // a finished CTA retires (its
  output logic [CtaW-1:0]          trace_cta_retire_idx_o,  // resident index): later than its
                                                        // warps' exits when memory is in flight
  output logic                     trace_wake_o,
  output logic [WarpW-1:0]         trace_wake_warp_o,
  output logic [31:0]              trace_wake_mask_o,
  output logic [AddrW-1:0]         trace_wake_resume_o,
  output logic                     trace_wake_late_o,   // served during an exit's barrier
                                                        // request: after the exit's DU step
  // ... an arrival the barrier unit accepted (its timeout origin), and a portion the unit
  // started because its TIMEOUT elapsed: a warp slot of the CTA and the barrier id.
  output logic                     trace_bar_accept_o,
  output logic                     trace_tmo_o,
  output logic [WarpW-1:0]         trace_tmo_warp_o,
  output logic [3:0]               trace_tmo_id_o,
  // ... any request the unit took for the instruction in flight (arrive, bottom, reset,
  // exit), and a critical section the slot arbiter granted (the choice the model follows).
  output logic                     trace_bu_req_o,
  output logic                     trace_grant_o,
  output logic [WarpW-1:0]         trace_grant_warp_o,
  output logic [3:0]               trace_grant_id_o,
  // A CTA launch starts: the warp slot its first warp takes (the core's placement, which
  // depends on when it retires finished CTAs; the model follows it).
  output logic                     trace_launch_o,
  output logic [WarpW-1:0]         trace_launch_warp_o,

  // Debug view of one warp (valid while the core is idle, done or faulted) and status.
  input  logic [WarpW-1:0]         dbg_warp_i,
  output logic                     dbg_resident_o,
  output logic                     dbg_done_o,
  output logic                     dbg_held_o,          // refused by a busy barrier id
  output logic [15:0]              dbg_ctaid_o,
  output logic [WarpW-1:0]         dbg_warp_in_cta_o,
  output logic [AddrW-1:0]         dbg_pc_o,
  output logic [31:0]              dbg_active_o,
  output logic [127:0]             dbg_reason_o,
  output logic [PtrW-1:0]          dbg_q_count_o,
  output logic                     quiet_o,             // idle and nothing can issue
  output logic [NumEnt-1:0]        bar_busy_o,
  output logic [NumEnt-1:0]        bar_static_long_o,
  output logic [NumEnt-1:0]        bar_sec_active_o,    // critical section queued or in service
  output logic [NumEnt-1:0]        bar_sec_queued_o,    // ... waiting for a slot grant
  output logic [NumEnt-1:0]        bar_sec_excl_o,      // ... exclusive

  // Performance counters, selected by number (docs/blocks/sm.md, "Performance counters").
  input  logic [4:0]               perf_sel_i,
  output logic [31:0]              perf_o
);

  // ---------------------------------------------------------------------------------------
  // Signals between the units
  // ---------------------------------------------------------------------------------------
  // Sequencer
  simt_sm_pkg::stage_e       stage;
  logic                      started;
  logic [31:0]               cycle;
  logic                      launch_start, launch_active, retire_cta, issue_try, drained;
  logic                      de_go, de_rd, de_back, exec_stage, lsu_start;
  logic [31:0]               exec_next;  // EXEC's executing threads in the next cycle
  logic [31:0]               imm_b_cp;   // inst.imm_b, a copy per thread (decode)
  logic [simt_sm_pkg::ImmCopies*32-1:0] imm_cp;  // inst.imm, ImmCopies copies (decode)
  logic                      de_hold, exec_more;
  logic [simt_sm_pkg::NumPerf-1:0] seq_evt;

  // Launch
  logic                      cfg_bad, launch_ready, launch_busy, launch_done, launch_wait_wake;
  logic                      all_done, launch_warp, launch_first, launch_du, launch_bu;
  logic                      launch_sh_we;
  logic [NumCtas-1:0]        cta_finished;
  logic [WarpW-1:0]          launch_slot, launch_du_warp;
  simt_pkg::du_req_t         launch_du_req;
  logic [CtaW-1:0]           launch_bu_cta;
  simt_pkg::bu_req_t         launch_bu_req;
  logic [ShAW-1:0]           launch_sh_waddr;
  logic                      launch_evt_du_stall;
  logic [NumWarps-1:0]       resident;
  logic [NumWarps*CtaW-1:0]  wcta;
  logic [NumWarps*WarpW-1:0] wic;
  logic [NumWarps*16-1:0]    wctaid;
  logic [NumCtas*16-1:0]     cid;
  logic [NumCtas*CtaWarps*WarpW-1:0] slot_of;

  // Issue and DE
  logic                      sched_valid, issued, pc_bad;
  logic [WarpW-1:0]          sched_warp;
  logic [AddrW-1:0]          issue_pc;
  logic [NumWarps-1:0]       held, sched_retire;
  logic                      de_v;
  logic [WarpW-1:0]          de_w;
  logic [AddrW-1:0]          de_pc;
  logic [31:0]               de_active;
  logic [63:0]               de_word;
  logic                      de_legal, de_simple, de_plain_mem;
  logic [CtaW+3:0]           sb_rd_idx, sb_upd_idx;
  logic [1:0]                sb_rd_state, sb_upd_state;
  logic [AddrW-1:0]          sb_rd_tag, sb_upd_tag;
  logic                      sb_upd_valid;

  // The instruction in EXEC and after
  logic [WarpW-1:0]          w;
  logic [AddrW-1:0]          pc;
  simt_sm_pkg::inst_t        inst;
  /* verilator lint_off UNUSEDSIGNAL */
  simt_sm_pkg::cls_t         cls;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0]               active, guard, exec;
  logic                      exe_any, exe_param_bad;  // decided in DE (simt_sm_decode)
  // Passes (simt_sm_pass) and the register file's read ports (one group of NumLanes threads).
  localparam int NumPasses = 32 / NumLanes;
  localparam int PassW     = (NumPasses > 1) ? $clog2(NumPasses) : 1;
  localparam int FpPasses  = 32 / FpLanes;
  localparam int FpPassW   = (FpPasses > 1) ? $clog2(FpPasses) : 1;
  logic [NumLanes*32-1:0]    opa, opb, opc;
  logic [PassW-1:0]          rd_grp;     // the group the ports hold
  logic [PassW-1:0]          pass_next;  // the next cycle's pass (read this cycle)
  logic [32*7-1:0]           pred;
  logic [31:0]               param_rdata;
  logic [WarpW-1:0]          w_wic;
  logic [CtaW-1:0]           w_cta;
  logic [15:0]               w_ctaid;
  assign w_wic   = wic[w*WarpW +: WarpW];
  assign w_cta   = wcta[w*CtaW +: CtaW];
  assign w_ctaid = wctaid[w*16 +: 16];

  // Execute
  logic [31:0]               exe_rf_we;
  logic                      exe_rf_link;  // EXEC's write is cal's link (r31)
  logic [NumLanes*32-1:0]    exe_rf_wdata;
  logic                      exe_pred_we;
  logic [32*7-1:0]           exe_pred_wdata;
  logic                      fpu_start, fpu_done, fpu_busy, fpu_pred_we;
  logic                      fpu_de_hazard, fpu_freed, fpu_rf_late, fpu_wb_wait, de_fpu;
  logic                      fpu_wb_want;  // an FP result is to be written (registers)
  logic                      de_fpu_ds;
  logic [NumWarps-1:0]       fpu_warp_busy;  // warps with an FP result in flight or queued
  logic [32*7-1:0]           fpu_pred_wdata;
  logic [31:0]               fpu_rf_we;
  logic [RfAW-1:0]           fpu_rf_waddr;
  logic [NumLanes*32-1:0]    fpu_rf_wdata;
  simt_sm_pkg::fault_t       exe_fault;

  // Load/store
  logic                      lsu_busy, lsu_done, lsu_rf_re, lsu_evt_stall, lsu_evt_conflict;
  logic                      lsu_done_fast;  // lsu_done in CHECK, from registered state
  logic                      lsu_rf_re_b, lsu_rf_re_c;
  logic                      lsu_evt_id_wait, lsu_evt_slot_wait, l1_stall_full, l1_stall_order;
  logic                      lsu_evt_sender_wait;
  logic [4:0]                lsu_rf_rb;
  logic [1:0]                lsu_rf_elem;
  logic [PassW-1:0]          lsu_rf_grp;
  logic [31:0]               lsu_rf_we;
  logic                      lsu_rf_wr;        // ... some (early: picks the port's address)
  logic [RfAW-1:0]           lsu_rf_waddr;
  logic                      lsu_rf_split;     // the v4 drain: an address a lane
  logic [NumLanes*RfAW-1:0]  lsu_rf_waddr_lane;
  logic [RfAW-1:0]           lsu_rf_uaddr;
  logic [3:0]                rf_used;
  logic [NumLanes*32-1:0]    lsu_rf_wdata;
  simt_sm_pkg::fault_t       lsu_fault;
  logic [WarpW-1:0]          lsu_fault_warp, l1_lookup_warp;
  logic [AddrW-1:0]          lsu_fault_pc;
  logic                      lsu_err_pending, lsu_quiet, lsu_rf_late, lsu_wb_wait;
  logic                      lsu_sh_we;  // a shared load writes (MEM): the FP unit waits
  logic                      lsu_de_hazard, de_hazard, de_membar;
  logic [31:0]               de_regs;
  logic [NumWarps-1:0]       lsu_warp_busy, sb_wait;
  logic [LsuSlots-1:0]       lsu_hazard_slots, lsu_freed_slots;
  logic [MemIdW-1:0]         l1_lookup_id;  // the request an L1 decision is about
  // The instruction in DE waits for a load of its warp (the scoreboard: it is given back).
  assign de_hazard = de_v && (lsu_de_hazard || fpu_de_hazard);
  // Nothing written late is in flight: no load, no FP result.
  logic late_quiet;
  assign late_quiet = lsu_quiet && !fpu_busy;

  // Control and the synchronisation blocks
  simt_sm_pkg::ctl_cmd_t     ctl_cmd;
  simt_sm_pkg::ctl_status_t  ctl_status;
  logic                      ctl_wake, ctl_launch_wake;
  logic                      dbg_sel, ctl_retire, ctl_retired, ctl_hold, woken;
  logic [AddrW-1:0]          woken_pc, iss_pc;
  logic [31:0]               woken_mask, iss_active;
  logic [NumWarps-1:0]       sched_wvalid, sched_wactive, du_stalled, wdone, wactive;
  logic [simt_sm_pkg::NumPerf-1:0] ctl_evt;
  logic                      du_valid, du_ready;
  simt_pkg::du_req_t         du_req;
  simt_pkg::du_ans_t         du_ans;
  logic                      du_evt_pop, du_evt_discard, qry_done, qry_busy;
  logic [WarpW-1:0]          du_warp, qry_warp, wake_slot;
  logic [31:0]               wake_mask;
  logic [AddrW-1:0]          wake_resume;
  logic                      bu_valid, bu_ready, bu_wake_valid;
  simt_pkg::bu_req_t         bu_req;
  simt_pkg::bu_ans_t         bu_ans;
  logic                      wake_ready;
  logic [CtaW-1:0]           bu_cta;

  // ---------------------------------------------------------------------------------------
  // Units
  // ---------------------------------------------------------------------------------------
  simt_sm_sequencer #(
    .NumWarps  (NumWarps),
    .LsuDetach (LsuDetach)
  ) u_seq (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .start_i            (start_i),
    .stage_o            (stage),
    .started_o          (started),
    .cycle_o            (cycle),
    .launch_cfg_bad_i   (cfg_bad),
    .all_done_i         (all_done && late_quiet),
    .cta_finished_i     (|cta_finished),
    .launch_ready_i     (launch_ready),
    .launch_done_i      (launch_done),
    .launch_wait_wake_i (launch_wait_wake),
    .launch_start_o     (launch_start),
    .launch_active_o    (launch_active),
    .retire_cta_o       (retire_cta),
    .sched_valid_i      (sched_valid),
    .sched_warp_i       (sched_warp),
    .issued_i           (issued),
    .pc_bad_i           (pc_bad),
    .issue_pc_i         (issue_pc),
    .de_v_i             (de_v),
    .de_w_i             (de_w),
    .de_pc_i            (de_pc),
    .de_legal_i         (de_legal),
    .de_simple_i        (de_simple),
    .de_plain_mem_i     (de_plain_mem),
    .de_hazard_i        (de_hazard),
    .hold_issue_i       (lsu_wb_wait || fpu_wb_wait || lsu_err_pending),
    .issue_try_o        (issue_try),
    .drained_o          (drained),
    .de_go_o            (de_go),
    .de_rd_o            (de_rd),
    .de_back_o          (de_back),
    .de_hold_o          (de_hold),
    .exec_o             (exec_stage),
    .dbg_sel_o          (dbg_sel),
    .w_i                (w),
    .pc_i               (pc),
    .is_mem_i           (cls.mem),
    .exec_mask_i        (exec),
    .exec_more_i        (exec_more),
    .exec_fault_i       (exe_fault),
    .lsu_start_o        (lsu_start),
    .lsu_done_i         (lsu_done),
    .lsu_done_fast_i    (lsu_done_fast),
    .lsu_fault_i        (lsu_fault),
    .lsu_fault_warp_i   (lsu_fault_warp),
    .lsu_fault_pc_i     (lsu_fault_pc),
    .is_fpu_i           (cls.fpu),
    .fpu_start_o        (fpu_start),
    .fpu_done_i         (fpu_done),
    .bu_wake_valid_i    (bu_wake_valid),
    .ctl_o              (ctl_cmd),
    .ctl_wake_o         (ctl_wake),
    .ctl_launch_wake_o  (ctl_launch_wake),
    .ctl_i              (ctl_status),
    .idle_barrier_i     (|(resident & ~wdone & (held | ~wactive))),
    .idle_queue_i       (du_stalled != '0 || exc_valid_o),
    .idle_mem_i         (sb_wait != '0 || !late_quiet),
    .evt_o              (seq_evt),
    .fault_cause_o      (fault_cause_o),
    .fault_warp_o       (fault_warp_o),
    .fault_pc_o         (fault_pc_o),
    .fault_lane_valid_o (fault_lane_valid_o),
    .fault_lane_o       (fault_lane_o),
    .fault_addr_o       (fault_addr_o)
  );

  simt_sm_launch #(
    .NumWarps    (NumWarps),
    .NumCtas     (NumCtas),
    .CtaWarps    (CtaWarps),
    .ParamWords  (ParamWords),
    .SharedWords (SharedWords)
  ) u_launch (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .cfg_ntid_i         (cfg_ntid_i),
    .cfg_nctaid_i       (cfg_nctaid_i),
    .cfg_shared_bytes_i (cfg_shared_bytes_i),
    .cfg_param_words_i  (cfg_param_words_i),
    .cfg_bad_o          (cfg_bad),
    .started_i          (started),
    .start_i            (launch_start),
    .active_i           (launch_active),
    .retire_i           (retire_cta),
    .launch_ready_o     (launch_ready),
    .busy_o             (launch_busy),
    .done_o             (launch_done),
    .wait_wake_o        (launch_wait_wake),
    .all_done_o         (all_done),
    .cta_finished_o     (cta_finished),
    .retire_idx_o       (trace_cta_retire_idx_o),
    // A CTA retires once its warps are done and none has a load, an atomic or an FP result
    // in flight (their registers and slots are not reused before the responses); stores
    // still being acknowledged do not hold it (simt_sm_lsu_inflight).
    .wdone_i            (wdone & ~lsu_warp_busy & ~fpu_warp_busy),
    .warp_valid_o       (launch_warp),
    .warp_slot_o        (launch_slot),
    .first_warp_o       (launch_first),
    .du_valid_o         (launch_du),
    .du_warp_o          (launch_du_warp),
    .du_req_o           (launch_du_req),
    .du_ready_i         (du_ans.done),      // (= du_ready for its DuLaunch, asserted there)
    .bu_valid_o         (launch_bu),
    .bu_cta_o           (launch_bu_cta),
    .bu_req_o           (launch_bu_req),
    .bu_ready_i         (bu_ready),
    .bu_wake_valid_i    (bu_wake_valid),
    .sh_we_o            (launch_sh_we),
    .sh_waddr_o         (launch_sh_waddr),
    .evt_du_stall_o     (launch_evt_du_stall),
    .resident_o         (resident),
    .wcta_o             (wcta),
    .wic_o              (wic),
    .wctaid_o           (wctaid),
    .cid_o              (cid),
    .slot_of_o          (slot_of)
  );

  // A warp given back from DE may issue again in that cycle (IssueBypass), else in the next.
  logic             back_d, back_q, back;  // back: the give-back the scheduler takes now
  logic [WarpW-1:0] back_w_q, back_w;
  assign back_d = de_back && !IssueBypass;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      back_q   <= 1'b0;
      back_w_q <= '0;
    end else begin
      back_q   <= back_d;
      back_w_q <= de_w;
    end
  end
  assign back   = IssueBypass ? de_back : back_q;
  assign back_w = IssueBypass ? de_w    : back_w_q;
  always_comb begin
    sched_retire = '0;
    if (ctl_retire) sched_retire[w] = 1'b1;
    if (back)       sched_retire[back_w] = 1'b1;
  end

  simt_sm_issue #(
    .NumWarps  (NumWarps),
    .NumCtas   (NumCtas),
    .ImemDepth (ImemDepth),
    .Slots     (LsuSlots)
  ) u_issue (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .imem_we_i       (imem_we_i),
    .imem_waddr_i    (imem_waddr_i),
    .imem_wdata_i    (imem_wdata_i),
    .cfg_code_size_i (cfg_code_size_i),
    .cfg_policy_i    (cfg_policy_i),
    .warp_valid_i    (sched_wvalid),
    .warp_active_i   (sched_wactive),
    .warp_stall_i    (du_stalled),
    .retire_i        (sched_retire),
    .sb_back_i       (de_back && de_hazard),
    .sb_warp_i       (de_w),
    .sb_slots_i      (lsu_hazard_slots),
    .sb_fpu_i        (fpu_de_hazard),
    .sb_slot_freed_i (lsu_freed_slots),
    .sb_fpu_freed_i  (fpu_freed),
    .sb_wait_o       (sb_wait),
    .warp_cta_i      (wcta),
    .cta_id_i        (cid),
    .bar_rd_idx_o    (sb_rd_idx),
    .bar_rd_state_i  (sb_rd_state),
    .bar_rd_tag_i    (sb_rd_tag),
    .bar_upd_valid_i (sb_upd_valid),
    .bar_upd_idx_i   (sb_upd_idx),
    .bar_upd_state_i (sb_upd_state),
    .bar_upd_tag_i   (sb_upd_tag),
    .hold_i          (ctl_hold),
    .hold_warp_i     (w),
    .hold_id_i       (inst.rd[3:0]),
    .hold_pc_i       (pc),
    .unhold_i        (launch_warp),
    .unhold_warp_i   (launch_slot),
    .held_o          (held),
    .issue_try_i     (issue_try),
    .drained_i       (drained),
    .de_hold_i       (de_hold),
    .self_i          (exec_stage || stage == simt_sm_pkg::StMem),  // (MEM: lsu_done_fast)
    .self_warp_i     (w),
    .self_pc_i       (pc),
    .self_active_i   (active),
    .woken_i         (woken),
    .woken_warp_i    (wake_slot),
    .woken_pc_i      (woken_pc),
    .woken_mask_i    (woken_mask),
    .iss_pc_i        (iss_pc),
    .iss_active_i    (iss_active),
    .sched_valid_o   (sched_valid),
    .sched_warp_o    (sched_warp),
    .issued_o        (issued),
    .pc_bad_o        (pc_bad),
    .issue_pc_o      (issue_pc),
    .de_v_o          (de_v),
    .de_w_o          (de_w),
    .de_pc_o         (de_pc),
    .de_active_o     (de_active),
    .de_word_o       (de_word),
    .de_regs_o       (de_regs)
  );

  // The register file's write port: one writer at a time (EXEC, the load/store unit, the FP
  // unit, cal's link register; asserted below). The data are ORed: the load/store unit's and
  // FP unit's are zero when they do not write; EXEC's and control's are selected only when
  // they write (an ALU instruction with no executing lane, or a control step, may leave the
  // port to a load's late response). (A launched slot's registers read 0: decode.)
  logic [31:0]      rf_we;
  logic [RfAW-1:0]  rf_waddr;
  logic [NumLanes*32-1:0] rf_wdata;  // on the lanes
  // EXEC's instruction may write the port this cycle (an ALU instruction, cal's link, which
  // the execute unit writes from the instruction alone): known from registers, so a load's or FP
  // result's write-back (and the memory response behind it) does not wait on EXEC's lanes,
  // faults or the divergence unit's answer; an ALU instruction with no executing thread
  // still holds the port for its cycle.
  // The FP unit's result takes the port before a load's response: the response waits while
  // one is to be written (when it waits itself, EXEC or a shared load has the port anyway), a
  // term from the unit's registers rather than its write decision.
  logic             rf_claim_exec;
  logic             rf_busy_core;  // a unit of the instruction in flight writes
  assign rf_claim_exec = exec_stage && (cls.alu || inst.op == simt_pkg::OpCal);
  assign rf_busy_core  = rf_claim_exec || fpu_wb_want;
  // The port's data and address are picked by the writers' flags from registers and early
  // terms (EXEC's claim, lsu_rf_wr, the FP unit's write), not by the ORs of their enables: the
  // load/store unit's enables come through its leader search and response, and the address
  // goes on into decode's entry-bit lookup and the banks' write enables (asserted equal).
  always_comb begin
    rf_we    = exe_rf_we | lsu_rf_we | fpu_rf_we;
    rf_wdata = (rf_claim_exec ? exe_rf_wdata : '0) | lsu_rf_wdata | fpu_rf_wdata;
    rf_waddr = {w, exe_rf_link ? 5'd31 : inst.rd};
    if (lsu_rf_wr)            rf_waddr = lsu_rf_waddr;
    else if (fpu_rf_late)     rf_waddr = fpu_rf_waddr;
  end

  // Whether an opcode takes passes on the lanes: decided for DE's instruction and latched
  // with it in decode (ex_multi), asserted equal to this of EXEC's below.
  function automatic logic on_lanes(logic c_alu, logic c_pred, logic c_fpu, logic [6:0] op);
    on_lanes = c_alu || c_pred || (FpPasses > 1 && c_fpu) ||
               (NumPasses > 1 && (op == simt_pkg::OpBrx || op == simt_pkg::OpJmx ||
                                  op == simt_pkg::OpRet || op == simt_pkg::OpCal));
  endfunction
  /* verilator lint_off UNUSEDSIGNAL */
  simt_sm_pkg::cls_t de_cls;
  /* verilator lint_on UNUSEDSIGNAL */
  logic             de_multi, ex_multi, ex_fp;
  assign de_cls   = simt_sm_pkg::classify(de_word[6:0]);
  assign de_multi = on_lanes(de_cls.alu, de_cls.pred, de_cls.fpu, de_word[6:0]);

  simt_sm_decode #(
    .NumWarps   (NumWarps),
    .NumLanes   (NumLanes),
    .ParamWords (ParamWords),
    .HasFpu     (HasFpu)
  ) u_decode (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .param_we_i      (param_we_i),
    .param_waddr_i   (param_waddr_i),
    .param_wdata_i   (param_wdata_i),
    .cfg_param_words_i (cfg_param_words_i),
    .de_w_i          (de_w),
    .de_pc_i         (de_pc),
    .de_active_i     (de_active),
    .de_word_i       (de_word),
    .de_legal_o      (de_legal),
    .de_simple_o     (de_simple),
    .de_plain_mem_o  (de_plain_mem),
    .de_fpu_o        (de_fpu),
    .de_fpu_ds_o     (de_fpu_ds),
    .de_membar_o     (de_membar),
    .de_multi_i      (de_multi),
    .multi_o         (ex_multi),
    .fp_o            (ex_fp),
    .de_go_i         (de_go),
    .de_rd_i         (de_rd),
    .pass_rd_i       (exec_more),
    .pass_next_i     (pass_next),
    .w_o             (w),
    .pc_o            (pc),
    .inst_o          (inst),
    .cls_o           (cls),
    .active_o        (active),
    .guard_o         (guard),
    .exec_o          (exec),
    .exec_next_o     (exec_next),
    .imm_b_o         (imm_b_cp),
    .imm_o           (imm_cp),
    .exec_any_o      (exe_any),
    .param_bad_o     (exe_param_bad),
    .opa_o           (opa),
    .opb_o           (opb),
    .opc_o           (opc),
    .rd_grp_o        (rd_grp),
    .pred_o          (pred),
    .param_rdata_o   (param_rdata),
    .lsu_re_i        (lsu_rf_re),
    .lsu_re_b_i      (lsu_rf_re_b),
    .lsu_re_c_i      (lsu_rf_re_c),
    .lsu_rb_i        (lsu_rf_rb),
    .lsu_elem_i      (lsu_rf_elem),
    .lsu_grp_i       (lsu_rf_grp),
    .rf_we_i         (rf_we),
    .rf_waddr_i      (rf_waddr),
    .rf_split_i      (lsu_rf_split),  // only the load/store unit's write (it excludes others)
    .rf_waddr_lane_i (lsu_rf_waddr_lane),
    .rf_wdata_i      (rf_wdata),
    .rf_uaddr_i      (lsu_rf_uaddr),
    .rf_used_o       (rf_used),
    .pred_we_i       (exe_pred_we || fpu_pred_we),
    .pred_wdata_i    (fpu_pred_we ? fpu_pred_wdata : exe_pred_wdata),
    .clr_i           (launch_warp),
    .clr_warp_i      (launch_slot)
  );

  // Passes: ALU and predicate instructions visit the groups of NumLanes threads that
  // execute, and with fewer lanes than threads so do the control instructions that read or
  // write every thread's register (brx, jmx and ret read their targets a group a pass, cal
  // writes its link register a group a pass: the register file's banks serve one group a
  // cycle); everything else spends one cycle in EXEC. Each pass's operands are read the
  // cycle before (DE: the first pass's; decode reads pass_next while a pass executes).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [PassW-1:0] pass;                  // (checked against its copies in u_pass)
  /* verilator lint_on UNUSEDSIGNAL */
  logic             thread_targets;        // brx, jmx, ret: a target per thread
  assign thread_targets = inst.op == simt_pkg::OpBrx || inst.op == simt_pkg::OpJmx ||
                          inst.op == simt_pkg::OpRet;
  logic [NumLanes*PassW-1:0] pass_lanes;   // a copy per lane
  logic [31:0]      pass_threads;
  /* verilator lint_off UNUSEDSIGNAL */
  // The FP group, a copy per FP lane: the FP unit reads lane 0's, each lane its low bits
  // (the ALU lane it serves); synthesis drops the copies' other bits.
  logic [FpLanes*FpPassW-1:0] fpass_lanes;
  /* verilator lint_on UNUSEDSIGNAL */
  simt_sm_pass #(.NumLanes(NumLanes), .FpLanes(FpLanes)) u_pass (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .valid_i   (exec_stage),
    .multi_i   (ex_multi),
    .fp_i      (ex_fp),
    .stop_i    (exe_fault.cause != simt_pkg::FltNone),
    .mask_i    (exec),
    .mask_next_i  (exec_next),
    .pass_o    (pass),
    .pass_lanes_o (pass_lanes),
    .pass_next_o  (pass_next),
    .fpass_lanes_o (fpass_lanes),
    .threads_o (pass_threads),
    .more_o    (exec_more)
  );

  simt_sm_execute #(
    .NumWarps   (NumWarps),
    .NumLanes   (NumLanes)
  ) u_execute (
    .valid_i           (exec_stage),
    .inst_i            (inst),
    .cls_i             (cls),
    .exec_i            (exec),
    .pass_i            (pass_lanes),
    .imm_b_i           (imm_b_cp[NumLanes-1:0]),
    .threads_i         (pass_threads),
    .opa_i             (opa),
    .opb_i             (opb),
    .pred_i            (pred),
    .param_rdata_i     (param_rdata),
    .exec_any_i        (exe_any),
    .param_bad_i       (exe_param_bad),
    .warp_in_cta_i     (w_wic),
    .ctaid_i           (w_ctaid),
    .cfg_ntid_i        (cfg_ntid_i),
    .cfg_nctaid_i      (cfg_nctaid_i),
    .cycle_i           (cycle),
    .pc_i              (pc),
    .rf_we_o           (exe_rf_we),
    .rf_wdata_o        (exe_rf_wdata),
    .rf_link_o         (exe_rf_link),
    .pred_we_o         (exe_pred_we),
    .pred_wdata_o      (exe_pred_wdata),
    .fault_o           (exe_fault)
  );

  // The load/store unit's side of the memory port (the L1's core side when there is one).
  logic                   lsu_mem_req_valid, lsu_mem_req_ready, lsu_mem_req_we;
  logic [MemIdW-1:0]      lsu_mem_req_id, lsu_mem_rsp_id;
  logic [3:0]             lsu_mem_req_amo;
  logic [31:0]            lsu_mem_req_addr, lsu_mem_req_cmp;
  logic [LineBytes-1:0]   lsu_mem_req_be;
  logic [LineBytes*8-1:0] lsu_mem_req_wdata, lsu_mem_rsp_rdata;
  logic                   lsu_mem_rsp_valid, lsu_mem_rsp_ready, lsu_mem_rsp_err;

  simt_sm_lsu #(
    .NumLanes    (NumLanes),
    .NumWarps    (NumWarps),
    .NumCtas     (NumCtas),
    .SharedWords (SharedWords),
    .SharedBanks (SharedBanks),
    .LineBytes   (LineBytes),
    .IdW         (MemIdW),
    .Slots       (LsuSlots),
    .Detach      (LsuDetach),
    .SendDepth   (LsuSendDepth)
  ) u_lsu (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .cfg_global_bytes_i (cfg_global_bytes_i),
    .cfg_shared_bytes_i (cfg_shared_bytes_i),
    .start_i            (lsu_start),
    .inst_i             (inst),
    .exec_i             (exec),
    .warp_i             (w),
    .pc_i               (pc),
    .cta_i              (w_cta),
    .imm_b_i            (imm_b_cp),
    .imm_i              (imm_cp),
    .busy_o             (lsu_busy),
    .done_o             (lsu_done),
    .done_fast_o        (lsu_done_fast),
    .fault_o            (lsu_fault),
    .fault_warp_o       (lsu_fault_warp),
    .fault_pc_o         (lsu_fault_pc),
    .err_pending_o      (lsu_err_pending),
    .quiet_o            (lsu_quiet),
    .evt_stall_o        (lsu_evt_stall),
    .evt_conflict_o     (lsu_evt_conflict),
    .evt_id_wait_o      (lsu_evt_id_wait),
    .evt_slot_wait_o    (lsu_evt_slot_wait),
    .evt_sender_wait_o  (lsu_evt_sender_wait),
    .de_w_i             (de_w),
    .de_regs_i          (de_regs),
    .de_membar_i        (de_membar),
    .de_hazard_o        (lsu_de_hazard),
    .de_hazard_slots_o  (lsu_hazard_slots),
    .freed_slots_o      (lsu_freed_slots),
    .warp_busy_o        (lsu_warp_busy),
    .look_id_i          (l1_lookup_id),
    .look_warp_o        (l1_lookup_warp),
    .rf_re_o            (lsu_rf_re),
    .rf_re_b_o          (lsu_rf_re_b),
    .rf_re_c_o          (lsu_rf_re_c),
    .rf_rb_o            (lsu_rf_rb),
    .rf_elem_o          (lsu_rf_elem),
    .rf_grp_o           (lsu_rf_grp),
    .opa_i              (opa),
    .opb_i              (opb),
    .opc_i              (opc),
    .rd_grp_i           (rd_grp),
    .rf_we_o            (lsu_rf_we),
    .rf_wr_o            (lsu_rf_wr),
    .rf_waddr_o         (lsu_rf_waddr),
    .rf_split_o         (lsu_rf_split),
    .rf_waddr_lane_o    (lsu_rf_waddr_lane),
    .rf_wdata_o         (lsu_rf_wdata),
    .rf_uaddr_o         (lsu_rf_uaddr),
    .rf_used_i          (rf_used),
    .rf_late_o          (lsu_rf_late),
    .rf_busy_i          (rf_busy_core),
    .wb_wait_o          (lsu_wb_wait),
    .sh_we_o            (lsu_sh_we),
    .sh_clr_i           (launch_sh_we),
    .sh_clr_addr_i      (launch_sh_waddr),
    .mem_req_valid_o    (lsu_mem_req_valid),
    .mem_req_ready_i    (lsu_mem_req_ready),
    .mem_req_id_o       (lsu_mem_req_id),
    .mem_req_we_o       (lsu_mem_req_we),
    .mem_req_amo_o      (lsu_mem_req_amo),
    .mem_req_addr_o     (lsu_mem_req_addr),
    .mem_req_be_o       (lsu_mem_req_be),
    .mem_req_wdata_o    (lsu_mem_req_wdata),
    .mem_req_cmp_o      (lsu_mem_req_cmp),
    .mem_rsp_valid_i    (lsu_mem_rsp_valid),
    .mem_rsp_ready_o    (lsu_mem_rsp_ready),
    .mem_rsp_id_i       (lsu_mem_rsp_id),
    .mem_rsp_err_i      (lsu_mem_rsp_err),
    .mem_rsp_rdata_i    (lsu_mem_rsp_rdata)
  );

  // ---- L1 data cache between the load/store unit and the port (docs/blocks/l1_cache.md) --
  logic [31:0] l1_hits, l1_misses, l1_merges, l1_evictions;
  logic        l1_lookup, l1_hit;  // a decision of the L1, a hit (of l1_lookup_id)
  if (L1Bytes > 0) begin : g_l1
    /* verilator lint_off PINCONNECTEMPTY */
    simt_l1_cache #(
      .SizeBytes (L1Bytes),
      .Ways      (L1Ways),
      .LineBytes (LineBytes),
      .Mshrs     (L1Mshrs),
      .IdW       (MemIdW),
      .MemIdW    (PortIdW)
    ) u_l1 (
      .clk_i              (clk_i),
      .rst_ni             (rst_ni),
      .core_req_valid_i   (lsu_mem_req_valid),
      .core_req_ready_o   (lsu_mem_req_ready),
      .core_req_id_i      (lsu_mem_req_id),
      .core_req_we_i      (lsu_mem_req_we),
      .core_req_amo_i     (lsu_mem_req_amo),
      .core_req_addr_i    (lsu_mem_req_addr),
      .core_req_be_i      (lsu_mem_req_be),
      .core_req_wdata_i   (lsu_mem_req_wdata),
      .core_req_cmp_i     (lsu_mem_req_cmp),
      .core_rsp_valid_o   (lsu_mem_rsp_valid),
      .core_rsp_ready_i   (lsu_mem_rsp_ready),
      .core_rsp_id_o      (lsu_mem_rsp_id),
      .core_rsp_err_o     (lsu_mem_rsp_err),
      .core_rsp_rdata_o   (lsu_mem_rsp_rdata),
      .mem_req_valid_o    (mem_req_valid_o),
      .mem_req_ready_i    (mem_req_ready_i),
      .mem_req_id_o       (mem_req_id_o),
      .mem_req_we_o       (mem_req_we_o),
      .mem_req_amo_o      (mem_req_amo_o),
      .mem_req_addr_o     (mem_req_addr_o),
      .mem_req_be_o       (mem_req_be_o),
      .mem_req_wdata_o    (mem_req_wdata_o),
      .mem_req_cmp_o      (mem_req_cmp_o),
      .mem_rsp_valid_i    (mem_rsp_valid_i),
      .mem_rsp_ready_o    (mem_rsp_ready_o),
      .mem_rsp_id_i       (mem_rsp_id_i),
      .mem_rsp_err_i      (mem_rsp_err_i),
      .mem_rsp_rdata_i    (mem_rsp_rdata_i),
      // A kernel's data may have been written by the host: nothing cached survives a start
      // (the core is idle then, so is the cache).
      .inv_i              (start_i),
      .idle_o             (),
      .cnt_hits_o         (l1_hits),
      .cnt_misses_o       (l1_misses),
      .cnt_merges_o       (l1_merges),
      .cnt_evictions_o    (l1_evictions),
      .evt_lookup_o       (l1_lookup),
      .evt_id_o           (l1_lookup_id),
      .evt_hit_o          (l1_hit),
      .evt_way_o          (),
      .evt_merge_o        (),
      .evt_alloc_o        (),
      .evt_mshr_o         (),
      .evt_fill_o         (),
      .evt_fill_mshr_o    (),
      .evt_fill_install_o (),
      .evt_fill_way_o     (),
      .evt_fill_evict_o   (),
      .evt_stall_full_o   (l1_stall_full),
      .evt_stall_order_o  (l1_stall_order)
    );
    /* verilator lint_on PINCONNECTEMPTY */
  end else begin : g_no_l1
    assign mem_req_valid_o   = lsu_mem_req_valid;
    assign lsu_mem_req_ready = mem_req_ready_i;
    assign mem_req_id_o      = lsu_mem_req_id;
    assign mem_req_we_o      = lsu_mem_req_we;
    assign mem_req_amo_o     = lsu_mem_req_amo;
    assign mem_req_addr_o    = lsu_mem_req_addr;
    assign mem_req_be_o      = lsu_mem_req_be;
    assign mem_req_wdata_o   = lsu_mem_req_wdata;
    assign mem_req_cmp_o     = lsu_mem_req_cmp;
    assign lsu_mem_rsp_valid = mem_rsp_valid_i;
    assign mem_rsp_ready_o   = lsu_mem_rsp_ready;
    assign lsu_mem_rsp_id    = mem_rsp_id_i;
    assign lsu_mem_rsp_err   = mem_rsp_err_i;
    assign lsu_mem_rsp_rdata = mem_rsp_rdata_i;
    assign l1_hits           = '0;
    assign l1_misses         = '0;
    assign l1_merges         = '0;
    assign l1_evictions      = '0;
    assign l1_lookup         = 1'b0;
    assign l1_lookup_id      = '0;
    assign l1_hit            = 1'b0;
    assign l1_stall_full     = 1'b0;
    assign l1_stall_order    = 1'b0;
  end

  // Per-warp L1 accesses and misses over a recent window (seed 001's mode choice reads them).
  logic [15:0] warp_l1_accesses, warp_l1_misses;
  simt_sm_miss_rate #(.NumWarps(NumWarps)) u_miss_rate (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .lookup_i   (l1_lookup),
    .hit_i      (l1_hit),
    .warp_i     (l1_lookup_warp),
    .clr_i      (launch_warp),
    .clr_warp_i (launch_slot),
    .sel_i      (dbg_warp_i),
    .accesses_o (warp_l1_accesses),
    .misses_o   (warp_l1_misses)
  );

  // ---- FP32 lanes ---------------------------------------------------------------------------
  if (HasFpu) begin : g_fpu
    // FpLanes FP lanes; with fewer lanes than threads an FP instruction takes a pass a group
    // of FpLanes threads (the pass sequencer's threads and FP group, its last pass), as an
    // ALU instruction does a group of NumLanes. With FpLanes < NumLanes each FP lane takes its
    // operands from one of the NumLanes / FpLanes ALU lanes it serves (the FP group's low
    // bits, a registered copy per FP lane), and its results are written on every one of them
    // (the write's threads, one FP group's, pick the lanes).
    localparam int Share = NumLanes / FpLanes;
    logic [FpLanes*32-1:0] fopa, fopb, fopc, fwdata;
    for (genvar l = 0; l < FpLanes; l++) begin : g_fop
      if (Share > 1) begin : g_sel
        logic [$clog2(Share)-1:0] sub;
        assign sub = fpass_lanes[l*FpPassW +: $clog2(Share)];
        always_comb begin  // (constant part-selects: Yosys)
          fopa[l*32 +: 32] = '0;
          fopb[l*32 +: 32] = '0;
          fopc[l*32 +: 32] = '0;
          for (int k = 0; k < Share; k++) begin
            if (32'(sub) == k) begin
              fopa[l*32 +: 32] = opa[(k*FpLanes + l)*32 +: 32];
              fopb[l*32 +: 32] = opb[(k*FpLanes + l)*32 +: 32];
              fopc[l*32 +: 32] = opc[(k*FpLanes + l)*32 +: 32];
            end
          end
        end
      end else begin : g_same
        assign fopa[l*32 +: 32] = opa[l*32 +: 32];
        assign fopb[l*32 +: 32] = opb[l*32 +: 32];
        assign fopc[l*32 +: 32] = opc[l*32 +: 32];
      end
    end
    assign fpu_rf_wdata = {Share{fwdata}};
    simt_sm_fpu #(.NumWarps(NumWarps), .NumLanes(FpLanes)) u_fpu (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .start_i      (fpu_start),
      .inst_i       (inst),
      .exec_i       (exec & pass_threads),
      .pass_i       (fpass_lanes[FpPassW-1:0]),
      .last_i       (!exec_more),
      .warp_i       (w),
      .opa_i        (fopa),
      .opb_i        (fopb),
      .opc_i        (fopc),
      .pred_i       (pred),
      .busy_o       (fpu_busy),
      .done_o       (fpu_done),
      .de_w_i       (de_w),
      .de_regs_i    (de_regs),
      .de_fpu_i     (de_fpu),
      .de_ds_i      (de_fpu_ds),
      .de_hazard_o  (fpu_de_hazard),
      .warps_o      (fpu_warp_busy),
      .freed_o      (fpu_freed),
      .rf_we_o      (fpu_rf_we),
      .rf_waddr_o   (fpu_rf_waddr),
      .rf_wdata_o   (fwdata),
      .rf_late_o    (fpu_rf_late),
      // A shared load's write (MEM) takes the port as EXEC's does; a global load's late
      // response waits for the FP unit instead while it has a result to write (rf_busy_core).
      .rf_busy_i    (rf_claim_exec || lsu_sh_we),
      .wb_wait_o    (fpu_wb_wait),
      .wb_want_o    (fpu_wb_want),
      .pred_we_o    (fpu_pred_we),
      .pred_wdata_o (fpu_pred_wdata)
    );
  end else begin : g_no_fpu
    // FP opcodes are illegal in decode: nothing starts this.
    assign fpu_busy       = 1'b0;
    assign fpu_done       = 1'b0;
    assign fpu_de_hazard  = 1'b0;  // an FP opcode in DE faults as illegal
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_de_fpu;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_de_fpu  = de_fpu ^ de_fpu_ds ^ lsu_sh_we ^ (|opc) ^ (|fpass_lanes);  // opc: 0
    assign fpu_warp_busy  = '0;
    assign fpu_freed      = 1'b0;
    assign fpu_rf_late    = 1'b0;
    assign fpu_wb_wait    = 1'b0;
    assign fpu_wb_want    = 1'b0;
    assign fpu_rf_we      = '0;
    assign fpu_rf_waddr   = '0;
    assign fpu_rf_wdata   = '0;
    assign fpu_pred_we    = 1'b0;
    assign fpu_pred_wdata = '0;
`ifdef VERILATOR
    always_ff @(posedge clk_i) begin
      if (rst_ni) assert (!fpu_start) else $error("sm: an FP instruction without FP lanes");
    end
`endif
  end

  simt_sm_control #(
    .NumWarps      (NumWarps),
    .NumCtas       (NumCtas),
    .NumLanes      (NumLanes),
    .IssueBypass (IssueBypass)
  ) u_control (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .cmd_i              (ctl_cmd),
    .wake_i             (ctl_wake),
    .launch_wake_i      (ctl_launch_wake),
    .status_o           (ctl_status),
    .dbg_sel_i          (dbg_sel),
    .dbg_warp_i         (dbg_warp_i),
    .inst_i             (inst),
    .cls_i              (cls),
    .w_i                (w),
    .pc_i               (pc),
    .guard_i            (guard),
    .exec_mask_i        (exec),
    .opa_i              (opa),
    .cta_i              (w_cta),
    .launch_warp_i      (launch_warp),
    .launch_slot_i      (launch_slot),
    .launch_du_i        (launch_du),
    .launch_du_warp_i   (launch_du_warp),
    .launch_du_req_i    (launch_du_req),
    .launch_bu_i        (launch_bu),
    .launch_bu_cta_i    (launch_bu_cta),
    .launch_bu_req_i    (launch_bu_req),
    .resident_i         (resident),
    .du_valid_o         (du_valid),
    .du_warp_o          (du_warp),
    .du_req_o           (du_req),
    .du_ready_i         (du_ready),
    .du_ans_i           (du_ans),
    .qry_warp_o         (qry_warp),
    .qry_active_i       (dbg_active_o),
    .qry_done_i         (qry_done),
    .qry_busy_i         (qry_busy),
    .bu_valid_o         (bu_valid),
    .bu_cta_o           (bu_cta),
    .bu_req_o           (bu_req),
    .bu_ready_i         (bu_ready),
    .bu_ans_i           (bu_ans),
    .wake_valid_i       (bu_wake_valid),
    .wake_ready_o       (wake_ready),
    .wake_slot_i        (wake_slot),
    .wake_resume_i      (wake_resume),
    .warp_valid_o       (sched_wvalid),
    .warp_active_o      (sched_wactive),
    .retire_o           (ctl_retire),
    .retired_o          (ctl_retired),
    .woken_o            (woken),
    .woken_pc_o         (woken_pc),
    .woken_mask_o       (woken_mask),
    .hold_o             (ctl_hold),
    .wdone_o            (wdone),
    .wactive_o          (wactive),
    .trace_wake_late_o  (trace_wake_late_o),
    .trace_bar_accept_o (trace_bar_accept_o),
    .trace_bu_req_o     (trace_bu_req_o),
    .evt_o              (ctl_evt)
  );

  simt_sm_sync #(
    .NumWarps    (NumWarps),
    .NumCtas     (NumCtas),
    .CtaWarps    (CtaWarps),
    .QueueDepth  (QueueDepth),
    .DequeMode   (DequeMode),
    .NumBarSlots (NumBarSlots),
    .FastThreadTargets (FastThreadTargets),
    .BarRamStyle (BarRamStyle),
    .NumLanes    (NumLanes)
  ) u_sync (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .cfg_stack_i        (cfg_stack_i),
    .lfsr_load_i        (start_i && !started),
    .cfg_lfsr_seed_i    (cfg_lfsr_seed_i),
    .cfg_static_limit_i (cfg_static_limit_i),
    .cfg_tmo_origin_i   (cfg_tmo_origin_i),
    .cfg_bar_prio_i     (cfg_bar_prio_i),
    .slot_of_i          (slot_of),
    .inst_i             (inst),
    .pc_i               (pc),
    .active_i           (active),
    .exec_i             (exec),
    .opa_i              (opa),
    .rd_grp_i           (rd_grp),
    .targets_i          (exec_stage && thread_targets),
    .wic_i              (w_wic),
    .du_valid_i         (du_valid),
    .du_warp_i          (du_warp),
    .du_next_warp_i     (w),  // the instruction's warp: control's DuNext names it
    .du_req_i           (du_req),
    .du_ready_o         (du_ready),
    .du_ans_o           (du_ans),
    .du_evt_pop_o       (du_evt_pop),
    .du_evt_discard_o   (du_evt_discard),
    .iss_warp_i         (sched_warp),
    .iss_pc_o           (iss_pc),
    .iss_active_o       (iss_active),
    .qry_warp_i         (qry_warp),
    .qry_pc_o           (dbg_pc_o),
    .qry_active_o       (dbg_active_o),
    .qry_reason_o       (dbg_reason_o),
    .qry_count_o        (dbg_q_count_o),
    .qry_done_o         (qry_done),
    .qry_busy_o         (qry_busy),
    .stalled_o          (du_stalled),
    .exc_valid_o        (exc_valid_o),
    .exc_warp_o         (exc_warp_o),
    .exc_back_o         (exc_back_o),
    .q_head_o           (q_head_o),
    .q_tail_o           (q_tail_o),
    .mnt_valid_i        (mnt_valid_i),
    .mnt_op_i           (mnt_op_i),
    .mnt_warp_i         (mnt_warp_i),
    .mnt_idx_i          (mnt_idx_i),
    .mnt_wdata_i        (mnt_wdata_i),
    .mnt_head_i         (mnt_head_i),
    .mnt_tail_i         (mnt_tail_i),
    .mnt_ready_o        (mnt_ready_o),
    .mnt_rvalid_o       (mnt_rvalid_o),
    .mnt_rdata_o        (mnt_rdata_o),
    .bu_valid_i         (bu_valid),
    .bu_cta_i           (bu_cta),
    .bu_req_i           (bu_req),
    .bu_ready_o         (bu_ready),
    .bu_ans_o           (bu_ans),
    .wake_valid_o       (bu_wake_valid),
    .wake_ready_i       (wake_ready),
    .wake_slot_o        (wake_slot),
    .wake_mask_o        (wake_mask),
    .wake_resume_o      (wake_resume),
    .sb_rd_idx_i        (sb_rd_idx),
    .sb_rd_state_o      (sb_rd_state),
    .sb_rd_tag_o        (sb_rd_tag),
    .sb_upd_valid_o     (sb_upd_valid),
    .sb_upd_idx_o       (sb_upd_idx),
    .sb_upd_state_o     (sb_upd_state),
    .sb_upd_tag_o       (sb_upd_tag),
    .bar_busy_o         (bar_busy_o),
    .bar_static_long_o  (bar_static_long_o),
    .bar_sec_active_o   (bar_sec_active_o),
    .bar_sec_queued_o   (bar_sec_queued_o),
    .bar_sec_excl_o     (bar_sec_excl_o),
    .trace_tmo_o        (trace_tmo_o),
    .trace_tmo_warp_o   (trace_tmo_warp_o),
    .trace_tmo_id_o     (trace_tmo_id_o),
    .trace_grant_o      (trace_grant_o),
    .trace_grant_warp_o (trace_grant_warp_o),
    .trace_grant_id_o   (trace_grant_id_o)
  );

  logic [simt_sm_pkg::NumPerf-1:0] perf_evt;
  always_comb begin
    perf_evt = seq_evt | ctl_evt;
    perf_evt[simt_sm_pkg::PerfPops]     = du_evt_pop;
    perf_evt[simt_sm_pkg::PerfDiscards] = du_evt_discard;
    perf_evt[simt_sm_pkg::PerfMemStall] = lsu_evt_stall;
    perf_evt[simt_sm_pkg::PerfShConflict] = lsu_evt_conflict;
    perf_evt[simt_sm_pkg::PerfWbWait]   = lsu_wb_wait;
    perf_evt[simt_sm_pkg::PerfL1MshrFull] = l1_stall_full;
    perf_evt[simt_sm_pkg::PerfL1Order]    = l1_stall_order;
    perf_evt[simt_sm_pkg::PerfIdWait]     = lsu_evt_id_wait;
    perf_evt[simt_sm_pkg::PerfSlotWait]   = lsu_evt_slot_wait;
    perf_evt[simt_sm_pkg::PerfSenderWait] = lsu_evt_sender_wait;
    perf_evt[simt_sm_pkg::PerfMemRefused] = lsu_mem_req_valid && !lsu_mem_req_ready;
    perf_evt[simt_sm_pkg::PerfSbBack]   = de_back && de_hazard;
    perf_evt[simt_sm_pkg::PerfDuStall]  = ctl_evt[simt_sm_pkg::PerfDuStall] |
                                          launch_evt_du_stall;
  end

  // The counters the perf unit keeps: not 16-21 (the L1's and the miss-rate unit's, read
  // below), the L1's stalls only with an L1, the sender's wait only with a sender.
  localparam logic [simt_sm_pkg::NumPerf-1:0] PerfPresent =
      ~(simt_sm_pkg::NumPerf'(6'h3F) << 16) &
      ~((L1Bytes > 0) ? '0 : (simt_sm_pkg::NumPerf'(1) << simt_sm_pkg::PerfL1MshrFull) |
                              (simt_sm_pkg::NumPerf'(1) << simt_sm_pkg::PerfL1Order)) &
      ~(LsuDetach ? '0 : simt_sm_pkg::NumPerf'(1) << simt_sm_pkg::PerfSenderWait);
  logic [31:0] perf_unit_o;
  simt_sm_perf #(.Present(PerfPresent)) u_perf (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .evt_i     (perf_evt),
    .threads_i (simt_sm_pkg::popcount32(exec)),
    .sel_i     (perf_sel_i),
    .count_o   (perf_unit_o)
  );

  // Counters 16-19: the L1's (hits, misses, MSHR merges, evictions; zero without an L1);
  // 20-21: warp dbg_warp_i's L1 accesses and misses over a recent window.
  always_comb begin
    unique case (perf_sel_i)
      5'd16:   perf_o = l1_hits;
      5'd17:   perf_o = l1_misses;
      5'd18:   perf_o = l1_merges;
      5'd19:   perf_o = l1_evictions;
      5'd20:   perf_o = {16'd0, warp_l1_accesses};  // of warp dbg_warp_i, windowed
      5'd21:   perf_o = {16'd0, warp_l1_misses};
      default: perf_o = perf_unit_o;
    endcase
  end

  // ---------------------------------------------------------------------------------------
  // Outputs
  // ---------------------------------------------------------------------------------------
  assign busy_o             = started && stage != simt_sm_pkg::StDone &&
                              stage != simt_sm_pkg::StFault;
  assign done_o             = stage == simt_sm_pkg::StDone;
  assign fault_o            = stage == simt_sm_pkg::StFault;
  assign retire_valid_o     = ctl_retired;
  assign retire_warp_o      = w;
  assign retire_pc_o        = pc;
  assign retire_exec_o      = exec;
  assign retire_active_o    = active;
  // Between issue and retire (launch register clears happen outside).
  assign trace_inflight_o   = stage != simt_sm_pkg::StIdle && stage != simt_sm_pkg::StLaunch &&
                              stage != simt_sm_pkg::StDone && stage != simt_sm_pkg::StFault;
  assign trace_rf_we_o      = rf_we;
  always_comb begin  // thread t: lane t mod NumLanes (the write enables name the threads)
    for (int t = 0; t < 32; t++) begin
      trace_rf_wdata_o[t*32 +: 32]     = rf_wdata[(t % NumLanes)*32 +: 32];
      trace_rf_waddr_o[t*RfAW +: RfAW] =
          lsu_rf_split ? lsu_rf_waddr_lane[(t % NumLanes)*RfAW +: RfAW] : rf_waddr;
    end
  end
  assign trace_rf_late_o    = lsu_rf_late || fpu_rf_late;
  assign trace_mem_quiet_o  = late_quiet;
  assign trace_cta_retire_o = retire_cta;
  assign trace_launch_o      = launch_first;
  assign trace_wake_o        = wake_ready;
  assign trace_wake_warp_o   = wake_slot;
  assign trace_wake_mask_o   = wake_mask;
  assign trace_wake_resume_o = wake_resume;
  assign trace_launch_warp_o = launch_slot;
  assign dbg_resident_o     = resident[dbg_warp_i];
  assign dbg_done_o         = wdone[dbg_warp_i];
  assign dbg_held_o         = held[dbg_warp_i];
  assign dbg_ctaid_o        = wctaid[dbg_warp_i*16 +: 16];
  assign dbg_warp_in_cta_o  = wic[dbg_warp_i*WarpW +: WarpW];
  assign quiet_o            = stage == simt_sm_pkg::StIdle && started && !sched_valid &&
                              !bu_wake_valid && !(|cta_finished) && !exc_valid_o &&
                              (du_stalled == '0) && late_quiet;

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // Only the issued warp's executing lanes are written, except launch clears and cal.
      if (stage == simt_sm_pkg::StExec && !trace_rf_late_o) assert ((rf_we & ~exec) == '0)
        else $error("sm: register write outside the executing lanes");
      if (de_v) assert (resident[de_w] && !wdone[de_w])
        else $error("sm: issued warp %0d is not resident", de_w);
      // Without IssueBypass a warp given back from DE is the scheduler's again only next cycle.
      assert (IssueBypass || !(de_back && issued && sched_warp == de_w))
        else $error("sm: warp %0d issued in the cycle it was given back", de_w);
      // The registers predecoded beside the instruction word are the word's.
      if (de_v) assert (de_regs == simt_sm_pkg::inst_regs(de_word))
        else $error("sm: DE's predecoded registers %h are not its word's %h", de_regs,
                    simt_sm_pkg::inst_regs(de_word));
      assert ($onehot0({exe_rf_we != '0, lsu_rf_we != '0, fpu_rf_we != '0}))
        else $error("sm: two register-file writers in one cycle (exe %h lsu %h fpu %h)",
                    exe_rf_we, lsu_rf_we, fpu_rf_we);
      assert (lsu_rf_wr == (lsu_rf_we != '0))
        else $error("sm: the load/store unit's write flag %b, its write %h", lsu_rf_wr, lsu_rf_we);
      assert (!(exe_rf_we != '0 && !rf_claim_exec))
        else $error("sm: EXEC writes %h without its claim on the port", exe_rf_we);
      assert (fpu_rf_late == (fpu_rf_we != '0))
        else $error("sm: the FP unit's write flag %b, its write %h", fpu_rf_late, fpu_rf_we);
      // cal's link goes to r31 of EXEC's warp.
      if (exe_rf_link && exe_rf_we != '0) assert (rf_waddr == {w, 5'd31})
        else $error("sm: cal's link written to %h", rf_waddr);
      // The write data are ORed: no unit drives data next to another's write.
      if (lsu_rf_we == '0) assert (lsu_rf_wdata == '0)
        else $error("sm: load/store unit write data without a write");
      if (fpu_rf_we == '0) assert (fpu_rf_wdata == '0)
        else $error("sm: FP unit write data without a write");
      assert (!(exe_pred_we && fpu_pred_we)) else $error("sm: two predicate writers in one cycle");
      // The port a load's response sees taken is the one the units' writes take: the FP
      // unit's wish (rf_busy_core) stands for its write whenever EXEC or a shared load does not
      // take the port first.
      assert ((rf_claim_exec || lsu_sh_we || fpu_wb_want) ==
              (rf_claim_exec || lsu_sh_we || fpu_rf_we != '0))
        else $error("sm: the FP unit wants the write port but neither writes nor waits");
      // Whoever writes, the merged data are its own (a load's late write included).
      if (lsu_rf_we != '0) assert (rf_wdata == lsu_rf_wdata)
        else $error("sm: another unit's write data next to the load/store unit's write");
      if (exe_rf_we != '0) assert (rf_wdata == exe_rf_wdata)
        else $error("sm: another unit's write data next to EXEC's write");
      // Each unit works only in its stage.
      assert (!(lsu_busy && stage != simt_sm_pkg::StMem && stage != simt_sm_pkg::StFault))
        else $error("sm: load/store unit busy outside MEM");
      assert (!(launch_busy && stage != simt_sm_pkg::StLaunch && stage != simt_sm_pkg::StCtrl))
        else $error("sm: launch outside LAUNCH");
      // The load/store unit's register read meets DE's only as the unit finishes (DE's read
      // wins; the unit needs no data after its last request).
      assert (!((lsu_rf_re || lsu_rf_re_b || lsu_rf_re_c) && de_rd && !lsu_done))
        else $error("sm: DE's register read took the ports from the load/store unit");
      // The operands are the register file's read data (decode has no latches): DE reads
      // again only once the load/store unit needs them no more, never while the FP unit has
      // yet to start the instruction in EXEC, and never while the divergence unit works on
      // the threads' targets (brx, jmx, ret) or the barrier unit takes a COUNT from ra.
      assert (!(de_rd && lsu_busy && !lsu_done))
        else $error("sm: DE read the ports while the load/store unit still uses them");
      assert (!(de_rd && fpu_start))
        else $error("sm: DE read the ports while an FP instruction still needs its operands");
      if (NumPasses == 1 && du_valid && (du_req.op == simt_pkg::DuBrx ||
                                         du_req.op == simt_pkg::DuJmx ||
                                         du_req.op == simt_pkg::DuRet))
        assert (!de_rd)
          else $error("sm: DE read the ports while the divergence unit reads the targets");
      if (bu_valid && inst.sub[0] && !inst.imm_b) assert (!de_rd)
        else $error("sm: DE read the ports while the barrier unit takes a COUNT from ra");
      // The pass sequencer's classes, latched in DE, are EXEC's instruction's.
      if (exec_stage) assert (ex_multi == on_lanes(cls.alu, cls.pred, cls.fpu, inst.op) &&
                              ex_fp == cls.fpu)
        else $error("sm: EXEC's pass classes %b/%b, its opcode's %b/%b", ex_multi, ex_fp,
                    on_lanes(cls.alu, cls.pred, cls.fpu, inst.op), cls.fpu);
      // Each pass's operands are on the ports (read the cycle before).
      if (exec_stage && (cls.alu || cls.pred || cls.fpu || (NumPasses > 1 && thread_targets)))
        assert (rd_grp == pass)
          else $error("sm: the ports hold group %0d in pass %0d", rd_grp, pass);
    end
  end
`endif

endmodule
