// Control: the divergence unit and the barrier unit, and the steps that tie an instruction
// to them (ARCHITECTURE.md's rule: a thread waits only in its warp's token queue).
//
// Every instruction ends with a divergence-unit request: plain and control instructions
// straight from EXEC (a plain one retires there when DuNext answers in the same cycle), the
// others from DU after the load/store unit or a barrier request (BARREQ: arrivals, section
// bottoms, resets; a refused arrival holds its warp). An exit tells the barrier unit
// afterwards (EXITBU). CHECK reads the warp's new state back and retires the instruction.
// Barrier wake tokens become divergence-unit requests (WAKE, WAKECHECK) between
// instructions, alternating with issue, or in the middle of a barrier request the barrier
// unit cannot take while it wakes (the wake returns there: ret_q).
//
// The unit owns the warps' run state (wdone: nothing left to run, wactive: has active
// threads) and shows the scheduler each warp's state, with this cycle's changes bypassed.
module simt_sm_control #(
  parameter int NumWarps    = 8,
  parameter int NumCtas     = 4,
  parameter int QueueDepth  = 32,
  parameter bit DequeMode   = 1'b1,
  parameter int NumBarSlots = 16,
  localparam int WarpW      = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW       = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int PtrW       = $clog2(QueueDepth + 1),
  localparam int NumEnt     = NumCtas * 16,
  localparam int RfAW       = WarpW + 5,
  localparam int AddrW      = 22
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      cfg_stack_i,
  input  logic                      lfsr_load_i,
  input  logic [15:0]               cfg_lfsr_seed_i,
  input  logic [15:0]               cfg_static_limit_i,
  input  logic [1:0]                cfg_tmo_origin_i,
  input  logic [31:0]               cfg_bar_prio_i,

  // Sequencer.
  input  logic                      exec_i,          // the instruction is in EXEC
  input  logic                      exec_fault_i,    // ... and faults
  input  logic                      lsu_done_i,      // its memory accesses are done
  input  logic                      wake_i,          // deliver the wake token due
  input  logic                      launch_wake_i,   // ... during the launch's BU step
  input  logic                      issue_ok_i,      // the next warp may issue
  input  logic                      issue_base_i,    // ... if no wake token were due
  input  logic                      wake_next_i,     // a wake token is due before issue
  input  logic                      de_v_i,          // an instruction is in DE
  input  logic                      de_simple_i,
  input  logic                      dbg_sel_i,       // the query port serves debug
  input  logic [WarpW-1:0]          dbg_warp_i,
  output logic                      busy_d_o,        // busy next cycle
  output logic                      ret_launch_o,    // done, back to the launch
  output logic                      check_o,         // in CHECK (DE may go on)
  output logic                      fast_o,          // EXEC retires in this cycle
  output logic                      issue_try_o,
  output logic                      issue_due_o,     // a wake was taken: issue's turn next

  // The instruction in EXEC and after.
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::inst_t        inst_i,  // the guard was applied in DE
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [WarpW-1:0]          w_i,
  input  logic [AddrW-1:0]          pc_i,
  input  logic [31:0]               active_i,
  input  logic [31:0]               guard_i,
  input  logic [31:0]               exec_mask_i,
  input  logic [32*32-1:0]          opa_i,
  input  logic [WarpW-1:0]          wic_i,           // its warp index in its CTA
  input  logic [CtaW-1:0]           cta_i,           // its resident CTA

  // Launch.
  input  logic                      launch_warp_i,   // a launched warp takes launch_slot_i
  input  logic [WarpW-1:0]          launch_slot_i,
  input  logic                      launch_du_i,
  input  logic [WarpW-1:0]          launch_du_warp_i,
  input  logic [31:0]               launch_du_mask_i,
  output logic                      du_ready_o,
  input  logic                      launch_bu_i,
  input  logic [CtaW-1:0]           launch_bu_cta_i,
  input  logic [11:0]               launch_bu_count_i,
  output logic                      bu_ready_o,
  output logic                      bu_wake_valid_o,
  input  logic [NumWarps-1:0]       resident_i,
  input  logic [NumCtas*NumWarps*WarpW-1:0] slot_of_i,

  // Issue.
  input  logic [WarpW-1:0]          sched_warp_i,
  output logic [AddrW-1:0]          iss_pc_o,
  output logic [31:0]               iss_active_o,
  output logic [NumWarps-1:0]       warp_valid_o,
  output logic [NumWarps-1:0]       warp_active_o,
  output logic [NumWarps-1:0]       stalled_o,
  output logic                      retire_o,        // the instruction in flight retires
  output logic                      retired_o,       // ... and counts (retire_valid_o)
  output logic                      woken_o,         // a sleeping warp woken this cycle
  output logic [WarpW-1:0]          woken_warp_o,
  output logic [AddrW-1:0]          woken_pc_o,
  output logic [31:0]               woken_mask_o,
  output logic                      hold_o,          // the arrival was refused
  input  logic [CtaW+3:0]           sb_rd_idx_i,
  output logic [1:0]                sb_rd_state_o,
  output logic [AddrW-1:0]          sb_rd_tag_o,
  output logic                      sb_upd_valid_o,
  output logic [CtaW+3:0]           sb_upd_idx_o,
  output logic [1:0]                sb_upd_state_o,
  output logic [AddrW-1:0]          sb_upd_tag_o,

  // cal's link register.
  output logic [31:0]               rf_we_o,
  output logic [RfAW-1:0]           rf_waddr_o,
  output logic [32*32-1:0]          rf_wdata_o,

  // Warp state, queue exceptions and maintenance, debug, trace, events.
  output logic [NumWarps-1:0]       wdone_o,
  output logic [NumWarps-1:0]       wactive_o,
  output logic                      exc_valid_o,
  output logic [WarpW-1:0]          exc_warp_o,
  output logic                      exc_back_o,
  output logic [PtrW-1:0]           q_head_o,
  output logic [PtrW-1:0]           q_tail_o,
  input  logic                      mnt_valid_i,
  input  simt_pkg::mnt_op_e         mnt_op_i,
  input  logic [WarpW-1:0]          mnt_warp_i,
  input  logic [PtrW-2:0]           mnt_idx_i,
  input  logic [63:0]               mnt_wdata_i,
  input  logic [PtrW-1:0]           mnt_head_i,
  input  logic [PtrW-1:0]           mnt_tail_i,
  output logic                      mnt_ready_o,
  output logic                      mnt_rvalid_o,
  output logic [63:0]               mnt_rdata_o,
  output logic [AddrW-1:0]          qry_pc_o,
  output logic [31:0]               qry_active_o,
  output logic [127:0]              qry_reason_o,
  output logic [PtrW-1:0]           qry_count_o,
  output logic [NumEnt-1:0]         bar_busy_o,
  output logic [NumEnt-1:0]         bar_static_long_o,
  output logic [NumEnt-1:0]         bar_sec_active_o,
  output logic [NumEnt-1:0]         bar_sec_queued_o,
  output logic [NumEnt-1:0]         bar_sec_excl_o,
  output logic                      trace_wake_o,
  output logic [WarpW-1:0]          trace_wake_warp_o,
  output logic [31:0]               trace_wake_mask_o,
  output logic [AddrW-1:0]          trace_wake_resume_o,
  output logic                      trace_wake_late_o,
  output logic                      trace_bar_accept_o,
  output logic                      trace_tmo_o,
  output logic [WarpW-1:0]          trace_tmo_warp_o,
  output logic [3:0]                trace_tmo_id_o,
  output logic                      trace_bu_req_o,
  output logic                      trace_grant_o,
  output logic [WarpW-1:0]          trace_grant_warp_o,
  output logic [3:0]                trace_grant_id_o,
  output logic [simt_sm_pkg::NumPerf-1:0] evt_o      // performance events (PerfThreads: +threads)
);

  simt_sm_pkg::ctrl_state_e state_d, state_q;
  simt_sm_pkg::ctrl_ret_e   ret_d, ret_q;      // where a wake in a barrier request returns
  logic [WarpW-1:0]         wake_w_d, wake_w_q;
  simt_pkg::du_op_e         du_op_d, du_op_q;
  logic [31:0]              du_guard_d, du_guard_q;
  logic                     bu_exit_d, bu_exit_q;  // exit: tell the barrier unit afterwards
  logic                     counted_d, counted_q;  // counts as an issued instruction
  logic [NumWarps-1:0]      wdone_d, wdone_q;
  logic [NumWarps-1:0]      wactive_d, wactive_q;

  /* verilator lint_off UNUSEDSIGNAL */
  simt_sm_pkg::cls_t cls;
  /* verilator lint_on UNUSEDSIGNAL */
  assign cls = simt_sm_pkg::classify(inst_i.op);

  // ---- Divergence unit -------------------------------------------------------------------
  logic                  du_req_valid, du_req_ready, du_req_has_target;
  simt_pkg::du_op_e      du_req_op;
  logic [WarpW-1:0]      du_req_warp, qry_warp;
  logic [31:0]           du_req_guard, du_link_mask, du_wake_mask;
  logic [AddrW-1:0]      du_req_target, du_link_value;
  logic [32*AddrW-1:0]   du_thread_target;
  logic                  du_yield_fired, du_wake_fast, du_evt_pop, du_evt_discard;
  /* verilator lint_off UNUSED */
  logic [63:0]           qry_front;
  logic [simt_pkg::SumW-1:0] qry_types;
  /* verilator lint_on UNUSED */
  for (genvar l = 0; l < 32; l++) begin : g_ttarget
    assign du_thread_target[l*AddrW +: AddrW] = opa_i[l*32 +: AddrW];
  end

  simt_divergence_unit #(
    .NumWarps  (NumWarps),
    .Depth     (QueueDepth),
    .DequeMode (DequeMode)
  ) u_du (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .cfg_stack_i         (cfg_stack_i),
    .lfsr_load_i         (lfsr_load_i),
    .lfsr_seed_i         (cfg_lfsr_seed_i),
    .req_valid_i         (du_req_valid),
    .req_op_i            (du_req_op),
    .req_warp_i          (du_req_warp),
    .req_guard_i         (du_req_guard),
    .req_has_target_i    (du_req_has_target),
    .req_target_i        (du_req_target),
    .req_thread_target_i (du_thread_target),
    .req_yield_kind_i    (inst_i.sub),
    .req_ready_o         (du_req_ready),
    .resp_link_mask_o    (du_link_mask),
    .resp_link_value_o   (du_link_value),
    .resp_yield_fired_o  (du_yield_fired),
    .resp_wake_fast_o    (du_wake_fast),
    .resp_wake_mask_o    (du_wake_mask),
    .evt_pop_o           (du_evt_pop),
    .evt_discard_o       (du_evt_discard),
    .iss_warp_i          (sched_warp_i),
    .iss_pc_o            (iss_pc_o),
    .iss_active_o        (iss_active_o),
    .qry_warp_i          (qry_warp),
    .qry_pc_o            (qry_pc_o),
    .qry_active_o        (qry_active_o),
    .qry_reason_o        (qry_reason_o),
    .qry_q_count_o       (qry_count_o),
    .qry_q_front_o       (qry_front),
    .qry_q_types_o       (qry_types),
    .q_head_o            (q_head_o),
    .q_tail_o            (q_tail_o),
    .exc_valid_o         (exc_valid_o),
    .exc_warp_o          (exc_warp_o),
    .exc_back_o          (exc_back_o),
    .stalled_o           (stalled_o),
    .mnt_valid_i         (mnt_valid_i),
    .mnt_op_i            (mnt_op_i),
    .mnt_warp_i          (mnt_warp_i),
    .mnt_idx_i           (mnt_idx_i),
    .mnt_wdata_i         (mnt_wdata_i),
    .mnt_head_i          (mnt_head_i),
    .mnt_tail_i          (mnt_tail_i),
    .mnt_ready_o         (mnt_ready_o),
    .mnt_rvalid_o        (mnt_rvalid_o),
    .mnt_rdata_o         (mnt_rdata_o)
  );

  // ---- Barrier unit ---------------------------------------------------------------------
  localparam int BuEntW = $clog2(NumEnt);
  logic                  bu_req_valid, bu_req_ready, bu_refused, bu_pass, bu_sleep;
  logic [2:0]            bu_req_op;
  logic [CtaW-1:0]       bu_req_cta, bu_wake_cta;
  logic [11:0]           bu_req_count;
  logic                  bu_wake_valid, bu_wake_ready;
  logic [WarpW-1:0]      bu_wake_warp;
  logic [31:0]           bu_wake_mask;
  logic [AddrW-1:0]      bu_wake_resume;
  logic [4:0]            bu_sleep_lane;
  logic [BuEntW-1:0]     bu_sb_upd_idx;
  logic                  bu_tmo_fire, bu_grant_fire;
  logic [BuEntW-1:0]     bu_tmo_bar, bu_grant_bar;
  /* verilator lint_off UNUSED */
  logic [NumBarSlots-1:0] bu_slots;
  logic [2:0]            bu_fsm_state;
  logic [$clog2(((NumEnt > NumBarSlots) ? NumEnt - NumBarSlots : 1) + 1)-1:0] bu_fifo_count;
  /* verilator lint_on UNUSED */

  // The barrier ids' priorities (seed 0108) go into the unit one id per cycle, round robin:
  // all 16 are loaded within 16 cycles of reset, long before a launched CTA can arrive.
  logic [3:0] prio_id_d, prio_id_q;
  assign prio_id_d = prio_id_q + 4'd1;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) prio_id_q <= '0;
    else         prio_id_q <= prio_id_d;
  end

  simt_barrier_unit #(
    .NumCtas  (NumCtas),
    .Warps    (NumWarps),
    .TagW     (AddrW),
    .TimeW    (16),
    .NumSlots (NumBarSlots),
    .PrioW    (2)
  ) u_bu (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .req_valid_i      (bu_req_valid),
    .req_ready_o      (bu_req_ready),
    .req_op_i         (bu_req_op),
    .req_cta_i        (bu_req_cta),
    .req_id_i         (inst_i.rd[3:0]),
    .req_warp_i       (wic_i),
    .req_mask_i       (exec_mask_i),
    .req_tag_i        (pc_i),
    .req_kind_i       ((inst_i.op == simt_pkg::OpBarSync) ? 2'd0 :
                       (inst_i.op == simt_pkg::OpBarTopOcs) ? 2'd1 : 2'd2),
    .req_excl_i       (inst_i.sub[1]),
    .req_nb_i         (inst_i.sub[2]),
    .req_count_i      (bu_req_count),
    .req_imp_i        (inst_i.sub[3]),
    .req_min_i        ({2'b00, inst_i.imm[21:12]}),
    .req_timeout_i    ({1'b0, inst_i.rb, inst_i.imm[31:22]}),
    .req_pass_i       (inst_i.sub[4]),
    .req_nonpart_i    ((active_i & ~exec_mask_i) != '0),
    .resp_refused_o   (bu_refused),
    .resp_pass_o      (bu_pass),
    .resp_sleep_o     (bu_sleep),
    .resp_lane_o      (bu_sleep_lane),
    .wake_valid_o     (bu_wake_valid),
    .wake_ready_i     (bu_wake_ready),
    .wake_cta_o       (bu_wake_cta),
    .wake_warp_o      (bu_wake_warp),
    .wake_mask_o      (bu_wake_mask),
    .wake_resume_o    (bu_wake_resume),
    .prio_we_i        (1'b1),
    .prio_id_i        (prio_id_q),
    .prio_val_i       (cfg_bar_prio_i[{prio_id_q, 1'b0} +: 2]),
    .static_limit_i   (cfg_static_limit_i),
    .cfg_tmo_origin_i (cfg_tmo_origin_i),
    .busy_o           (bar_busy_o),
    .static_long_o    (bar_static_long_o),
    .sec_active_o     (bar_sec_active_o),
    .sec_queued_o     (bar_sec_queued_o),
    .sec_excl_o       (bar_sec_excl_o),
    .fsm_state_o      (bu_fsm_state),
    .slots_occupied_o (bu_slots),
    .fifo_count_o     (bu_fifo_count),
    .tmo_fire_o       (bu_tmo_fire),
    .tmo_fire_bar_o   (bu_tmo_bar),
    .grant_fire_o     (bu_grant_fire),
    .grant_fire_bar_o (bu_grant_bar),
    .sb_rd_idx_i      (BuEntW'(sb_rd_idx_i)),
    .sb_rd_state_o    (sb_rd_state_o),
    .sb_rd_tag_o      (sb_rd_tag_o),
    .sb_upd_valid_o   (sb_upd_valid_o),
    .sb_upd_idx_o     (bu_sb_upd_idx),
    .sb_upd_state_o   (sb_upd_state_o),
    .sb_upd_tag_o     (sb_upd_tag_o)
  );
  assign sb_upd_idx_o = (CtaW + 4)'(bu_sb_upd_idx);

  // (CTA, warp in CTA) -> warp slot: of the wake token offered, and of the first warp of
  // a CTA whose barrier timed out or whose section was granted (trace).
  logic [WarpW-1:0] wake_slot;
  logic [CtaW-1:0]  tmo_cta, grant_cta;
  assign tmo_cta   = CtaW'(bu_tmo_bar >> 4);
  assign grant_cta = CtaW'(bu_grant_bar >> 4);
  assign wake_slot = slot_of_i[{bu_wake_cta, bu_wake_warp}*WarpW +: WarpW];

  // The warp's done condition from the divergence unit's state: nothing active, no token,
  // every thread exited or never launched. qry_busy: not done whatever the queue holds
  // (active threads, or threads waiting for a token or a barrier); it does not read the
  // queue, whose query port the divergence unit gives to a request presented in the same
  // cycle.
  logic qry_done, qry_busy;
  always_comb begin
    qry_busy = qry_active_o != '0;
    for (int l = 0; l < 32; l++) begin
      if (qry_reason_o[l*4 +: 4] != simt_pkg::RsnNone &&
          qry_reason_o[l*4 +: 4] != simt_pkg::RsnExit) qry_busy = 1'b1;
    end
  end
  assign qry_done = !qry_busy && (qry_count_o == '0);

  // The query port: the warp in flight or just woken (its state read back), else debug.
  assign qry_warp = dbg_sel_i ? dbg_warp_i :
                    (state_q == simt_sm_pkg::CtWakeCheck) ? wake_w_q : w_i;

  // EXEC hands plain and control instructions to the divergence unit in the same cycle
  // (memory and barrier instructions and faults go elsewhere first); a plain one retires
  // then (fast_o).
  logic direct, ex_simple;
  assign direct    = exec_i && !exec_fault_i && !cls.mem && !cls.arrive &&
                     !(cls.bottom && exec_mask_i != '0) && inst_i.op != simt_pkg::OpBarReset;
  assign ex_simple = direct && !cls.ctrl;
  assign fast_o    = ex_simple && du_req_ready;

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
    state_d    = state_q;
    ret_d      = ret_q;
    wake_w_d   = wake_w_q;
    du_op_d    = du_op_q;
    du_guard_d = du_guard_q;
    bu_exit_d  = bu_exit_q;
    counted_d  = counted_q;
    wdone_d    = wdone_q;
    wactive_d  = wactive_q;

    du_req_valid      = 1'b0;
    du_req_op         = du_op_q;
    du_req_warp       = w_i;
    du_req_guard      = du_guard_q;
    du_req_has_target = 1'b1;
    du_req_target     = inst_i.imm[AddrW-1:0];
    bu_req_valid      = 1'b0;
    bu_req_op         = 3'd2;
    bu_req_cta        = cta_i;
    bu_req_count      = '0;
    bu_wake_ready     = 1'b0;
    issue_try_o       = 1'b0;
    issue_due_o       = 1'b0;
    retire_o          = 1'b0;
    hold_o            = 1'b0;
    rf_we_o           = '0;
    rf_waddr_o        = {w_i, 5'd31};
    rf_wdata_o        = '0;
    evt_o             = '0;

    if (launch_warp_i) begin
      wdone_d[launch_slot_i]   = 1'b0;
      wactive_d[launch_slot_i] = 1'b1;
    end
    if (launch_du_i) begin
      du_req_valid  = 1'b1;
      du_req_op     = simt_pkg::DuLaunch;
      du_req_warp   = launch_du_warp_i;
      du_req_guard  = launch_du_mask_i;
      du_req_target = '0;
    end
    if (launch_bu_i) begin
      bu_req_valid = 1'b1;
      bu_req_op    = 3'd0;
      bu_req_cta   = launch_bu_cta_i;
      bu_req_count = launch_bu_count_i;
    end
    if (exec_i) begin
      counted_d  = 1'b1;
      bu_exit_d  = 1'b0;
      du_op_d    = simt_pkg::DuNext;
      du_guard_d = guard_i;
      if (cls.ctrl) begin
        du_op_d   = simt_sm_pkg::ctrl_du_op(inst_i.op);
        bu_exit_d = (inst_i.op == simt_pkg::OpExit) && exec_mask_i != '0;
      end
    end

    unique case (state_q)
      simt_sm_pkg::CtIdle: begin
        if (exec_i && !exec_fault_i && !(cls.mem && exec_mask_i != '0)) begin
          // An arrival without participants still tells the unit (a TIMEOUT may be measured
          // from any thread's arrival); it claims nothing and nobody sleeps.
          if ((cls.arrive || cls.bottom || inst_i.op == simt_pkg::OpBarReset) &&
              (exec_mask_i != '0 || cls.arrive || inst_i.op == simt_pkg::OpBarReset)) begin
            state_d = simt_sm_pkg::CtBarReq;
          end else begin
            state_d = simt_sm_pkg::CtDu;  // unless the direct request is taken (below)
          end
        end
        if (lsu_done_i) state_d = simt_sm_pkg::CtDu;
        if (wake_i || launch_wake_i) begin
          ret_d   = launch_wake_i ? simt_sm_pkg::RetLaunch : simt_sm_pkg::RetNone;
          state_d = simt_sm_pkg::CtWake;
        end
      end

      simt_sm_pkg::CtBarReq: begin
        bu_req_valid = 1'b1;
        bu_req_op    = cls.arrive ? 3'd2 : cls.bottom ? 3'd4 : 3'd3;
        if (inst_i.sub[0]) begin  // COUNT: immediate, or ra of the lowest participating lane
          bu_req_count = inst_i.imm_b ? inst_i.imm[11:0]
                                      : opa_i[simt_sm_pkg::lowest(exec_mask_i)*32 +: 12];
        end
        if (bu_req_ready) begin
          state_d = simt_sm_pkg::CtDu;
          if (cls.arrive) begin
            evt_o[simt_sm_pkg::PerfArrivals] = exec_mask_i != '0;
            if (bu_refused) begin
              // Held until the id is free; the instruction issues again then.
              evt_o[simt_sm_pkg::PerfRefused] = 1'b1;
              hold_o    = 1'b1;
              counted_d = 1'b0;
              state_d   = simt_sm_pkg::CtCheck;
            end else if (!bu_pass && exec_mask_i != '0) begin
              du_op_d    = simt_pkg::DuBarSleep;
              du_guard_d = exec_mask_i;
            end
          end else if (cls.bottom && bu_sleep) begin
            // The thread inside the section sleeps at its bottom (blocking bottom).
            du_op_d    = simt_pkg::DuBarSleep;
            du_guard_d = 32'd1 << bu_sleep_lane;
          end
        end else if (bu_wake_valid) begin
          // The unit may be waking threads before it takes requests again.
          ret_d   = simt_sm_pkg::RetBarReq;
          state_d = simt_sm_pkg::CtWake;
        end
      end

      simt_sm_pkg::CtDu: ;  // the request is below

      simt_sm_pkg::CtExitBu: begin
        // Exits shrink the default COUNT of the CTA's barriers.
        bu_req_valid = 1'b1;
        bu_req_op    = 3'd1;
        bu_req_count = 12'(simt_sm_pkg::popcount32(exec_mask_i));
        if (bu_req_ready) begin
          state_d = simt_sm_pkg::CtCheck;
        end else if (bu_wake_valid) begin
          ret_d   = simt_sm_pkg::RetExitBu;
          state_d = simt_sm_pkg::CtWake;
        end
      end

      simt_sm_pkg::CtCheck: begin
        wactive_d[w_i] = qry_active_o != '0;
        wdone_d[w_i]   = qry_done;
        retire_o       = 1'b1;
        evt_o[simt_sm_pkg::PerfInsts]   = counted_q;
        evt_o[simt_sm_pkg::PerfThreads] = counted_q;
        state_d = simt_sm_pkg::CtIdle;
        // The next warp issues in this cycle when IDLE would only issue and the instruction
        // in DE, if any, is simple; the scheduler sees this warp's new state (warp_valid_o).
        // A wake token due is delivered now instead (unless this warp is done: IDLE may
        // retire its CTA first); a sleeping warp's wake completes in this cycle and the next
        // warp (the woken one, say) issues at once, else WAKE carries the request on.
        issue_try_o = issue_ok_i && (!de_v_i || de_simple_i);
        if (wake_next_i && !de_v_i && qry_busy) begin
          ret_d         = simt_sm_pkg::RetNone;
          issue_due_o   = 1'b1;
          issue_try_o   = 1'b0;
          du_req_valid  = 1'b1;
          du_req_op     = simt_pkg::DuBarWake;
          du_req_warp   = wake_slot;
          du_req_guard  = bu_wake_mask;
          du_req_target = bu_wake_resume;
          wake_w_d      = wake_slot;
          state_d       = simt_sm_pkg::CtWake;
          if (du_req_ready) begin
            bu_wake_ready                 = 1'b1;
            evt_o[simt_sm_pkg::PerfWakes] = 1'b1;
            wactive_d[wake_slot]          = 1'b1;
            wdone_d[wake_slot]            = 1'b0;
            state_d                       = simt_sm_pkg::CtIdle;
            issue_try_o                   = issue_base_i;
          end
        end
      end

      simt_sm_pkg::CtWake: begin
        du_req_valid  = 1'b1;
        du_req_op     = simt_pkg::DuBarWake;
        du_req_warp   = wake_slot;
        du_req_guard  = bu_wake_mask;
        du_req_target = bu_wake_resume;
        bu_wake_ready = du_req_ready;
        wake_w_d      = wake_slot;
        evt_o[simt_sm_pkg::PerfDuStall] = !du_req_ready;
        if (du_req_ready) begin
          evt_o[simt_sm_pkg::PerfWakes] = 1'b1;
          if (du_wake_fast) begin
            // The warp slept with no active thread and now runs the woken ones: nothing to
            // read back, and the next warp (the woken one, say) issues now.
            wactive_d[wake_slot] = 1'b1;
            wdone_d[wake_slot]   = 1'b0;
            state_d              = wake_ret_state;
            issue_try_o          = ret_q == simt_sm_pkg::RetNone && issue_ok_i;
          end else begin
            state_d = simt_sm_pkg::CtWakeCheck;
          end
        end
      end

      simt_sm_pkg::CtWakeCheck: begin
        wactive_d[wake_w_q] = qry_active_o != '0;
        wdone_d[wake_w_q]   = qry_done;
        state_d             = wake_ret_state;
        // The next warp (the woken one, say: its new state is bypassed to the scheduler)
        // issues now when IDLE would only issue.
        issue_try_o         = ret_q == simt_sm_pkg::RetNone && issue_ok_i;
      end

      default: state_d = simt_sm_pkg::CtIdle;
    endcase

    // The instruction's divergence-unit request: from EXEC already for plain and control
    // instructions (DuNext answers in the same cycle), else from DU.
    if (state_q == simt_sm_pkg::CtDu || direct) begin
      du_req_valid      = 1'b1;
      du_req_op         = direct ? (cls.ctrl ? simt_sm_pkg::ctrl_du_op(inst_i.op)
                                             : simt_pkg::DuNext) : du_op_q;
      du_req_guard      = direct ? guard_i : du_guard_q;
      du_req_has_target = (inst_i.op == simt_pkg::OpSync || inst_i.op == simt_pkg::OpBrk ||
                           inst_i.op == simt_pkg::OpCont) ? inst_i.imm_b : 1'b1;
      evt_o[simt_sm_pkg::PerfDuStall] = !du_req_ready && !direct;
      if (du_req_ready) begin
        if (inst_i.op == simt_pkg::OpCal) begin
          rf_we_o = du_link_mask;
          for (int l = 0; l < 32; l++) rf_wdata_o[l*32 +: 32] = 32'(du_link_value);
        end
        evt_o[simt_sm_pkg::PerfYields] = inst_i.op == simt_pkg::OpYield && du_yield_fired;
        if (ex_simple) begin
          // Retires here; the next warp issues when IDLE would only issue and the
          // instruction in DE (if any) is simple too.
          retire_o    = 1'b1;
          evt_o[simt_sm_pkg::PerfInsts]   = 1'b1;
          evt_o[simt_sm_pkg::PerfThreads] = 1'b1;
          state_d     = simt_sm_pkg::CtIdle;
          issue_try_o = issue_ok_i && (!de_v_i || de_simple_i);
          if (wake_next_i && !de_v_i) begin
            ret_d       = simt_sm_pkg::RetNone;
            issue_due_o = 1'b1;
            state_d     = simt_sm_pkg::CtWake;
          end
        end else if (direct ? (inst_i.op == simt_pkg::OpExit && exec_mask_i != '0)
                            : bu_exit_q) begin
          state_d = simt_sm_pkg::CtExitBu;
        end else begin
          // CHECK comes next; the next warp issues now and is decoded during CHECK.
          state_d     = simt_sm_pkg::CtCheck;
          issue_try_o = issue_ok_i;
        end
      end
    end
    evt_o[simt_sm_pkg::PerfDuStall] = evt_o[simt_sm_pkg::PerfDuStall] |
                                      (launch_du_i && !du_req_ready);
    evt_o[simt_sm_pkg::PerfPops]     = du_evt_pop;
    evt_o[simt_sm_pkg::PerfDiscards] = du_evt_discard;
  end

  assign busy_d_o     = state_d != simt_sm_pkg::CtIdle;
  assign ret_launch_o = (state_q == simt_sm_pkg::CtWake || state_q == simt_sm_pkg::CtWakeCheck) &&
                        ret_q == simt_sm_pkg::RetLaunch && state_d == simt_sm_pkg::CtIdle;
  assign check_o      = state_q == simt_sm_pkg::CtCheck;
  assign retired_o    = evt_o[simt_sm_pkg::PerfInsts];
  assign du_ready_o   = du_req_ready;
  assign bu_ready_o   = bu_req_ready;
  assign bu_wake_valid_o = bu_wake_valid;

  // What the scheduler sees of each warp; in CHECK the checked warp's new state straight
  // from the divergence unit (it may issue again in the same cycle), likewise a woken one.
  always_comb begin
    warp_valid_o  = resident_i & ~wdone_q;
    warp_active_o = wactive_q;
    if (state_q == simt_sm_pkg::CtCheck) begin
      warp_valid_o[w_i]  = resident_i[w_i] && !qry_done;
      warp_active_o[w_i] = qry_active_o != '0;
    end
    if (state_q == simt_sm_pkg::CtWakeCheck) begin
      warp_valid_o[wake_w_q]  = resident_i[wake_w_q] && !qry_done;
      warp_active_o[wake_w_q] = qry_active_o != '0;
    end
    if (woken_o) begin
      warp_valid_o[wake_slot]  = resident_i[wake_slot];
      warp_active_o[wake_slot] = 1'b1;
    end
  end
  assign woken_o      = (state_q == simt_sm_pkg::CtWake || state_q == simt_sm_pkg::CtCheck) &&
                        du_wake_fast;
  assign woken_warp_o = wake_slot;
  assign woken_pc_o   = bu_wake_resume;
  assign woken_mask_o = du_wake_mask;

  assign wdone_o   = wdone_q;
  assign wactive_o = wactive_q;

  assign trace_wake_o        = bu_wake_ready;
  assign trace_wake_warp_o   = wake_slot;
  assign trace_wake_mask_o   = bu_wake_mask;
  assign trace_wake_resume_o = bu_wake_resume;
  // (Served during an exit's barrier request, or in the CHECK that retires an instruction:
  // after that instruction.)
  assign trace_wake_late_o   = ret_q == simt_sm_pkg::RetExitBu ||
                               (state_q == simt_sm_pkg::CtCheck && counted_q);
  assign trace_bar_accept_o  = state_q == simt_sm_pkg::CtBarReq && bu_req_ready &&
                               cls.arrive && !bu_refused;
  assign trace_tmo_o         = bu_tmo_fire;
  assign trace_tmo_warp_o    = slot_of_i[{tmo_cta, WarpW'(0)}*WarpW +: WarpW];
  assign trace_tmo_id_o      = bu_tmo_bar[3:0];
  // (A refused arrival changes nothing in the unit and does not retire: not counted.)
  assign trace_bu_req_o      = (state_q == simt_sm_pkg::CtBarReq ||
                                state_q == simt_sm_pkg::CtExitBu) && bu_req_ready &&
                               !(state_q == simt_sm_pkg::CtBarReq && cls.arrive && bu_refused);
  assign trace_grant_o       = bu_grant_fire;
  assign trace_grant_warp_o  = slot_of_i[{grant_cta, WarpW'(0)}*WarpW +: WarpW];
  assign trace_grant_id_o    = bu_grant_bar[3:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= simt_sm_pkg::CtIdle;
      ret_q      <= simt_sm_pkg::RetNone;
      wake_w_q   <= '0;
      du_op_q    <= simt_pkg::DuNext;
      du_guard_q <= '0;
      bu_exit_q  <= 1'b0;
      counted_q  <= 1'b0;
      wdone_q    <= '0;
      wactive_q  <= '0;
    end else begin
      state_q    <= state_d;
      ret_q      <= ret_d;
      wake_w_q   <= wake_w_d;
      du_op_q    <= du_op_d;
      du_guard_q <= du_guard_d;
      bu_exit_q  <= bu_exit_d;
      counted_q  <= counted_d;
      wdone_q    <= wdone_d;
      wactive_q  <= wactive_d;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (state_q == simt_sm_pkg::CtWake) assert (resident_i[wake_slot])
        else $error("sm: barrier wake for a warp that is not resident");
      // A blocking bottom puts to sleep the thread in the section, which is in this warp.
      if (state_q == simt_sm_pkg::CtBarReq && bu_req_ready && cls.bottom && bu_sleep)
        assert (exec_mask_i[bu_sleep_lane])
        else $error("sm: bottom sleep of a thread that is not in the section");
      assert (!(exec_i && state_q != simt_sm_pkg::CtIdle))
        else $error("sm control: an instruction in EXEC while busy");
      assert ($onehot0({exec_i, lsu_done_i, wake_i, launch_wake_i, launch_du_i, launch_bu_i}))
        else $error("sm control: two commands in one cycle");
      assert (!((launch_du_i || launch_bu_i) && state_q != simt_sm_pkg::CtIdle))
        else $error("sm control: a launch request while busy");
    end
  end
`endif

endmodule
