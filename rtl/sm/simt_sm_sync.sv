// The core's synchronisation blocks: the divergence unit (seed 002's token queues,
// rtl/divergence/) and the barrier unit (seed 000, rtl/barrier/), presented to the core.
//
// The control unit drives both request ports; the fields that come from the instruction in
// flight (barrier id, flags, COUNT/MIN/TIMEOUT, tag, the threads' own branch targets) are
// taken here from the instruction. The unit also loads the barrier ids' priorities, maps
// the barrier unit's (CTA, warp in CTA) to warp slots (wake tokens, trace), and derives a
// warp's done state from the divergence unit's query port.
module simt_sm_sync #(
  parameter int NumWarps    = 8,
  parameter int NumCtas     = 4,
  parameter int CtaWarps    = NumWarps,  // warps a CTA may have: the barrier unit's rows
  parameter int QueueDepth  = 32,
  parameter bit DequeMode   = 1'b1,
  parameter int NumBarSlots = 16,
  parameter bit FastThreadTargets = 1'b1,  // the divergence unit's (simt_sm)
  parameter     BarRamStyle = "auto",      // the barrier unit's thread state RAMs (simt_sm)
  parameter int NumLanes    = 32,
  localparam int NumPasses  = 32 / NumLanes,
  localparam int PassW      = (NumPasses > 1) ? $clog2(NumPasses) : 1,
  localparam int WarpW      = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW       = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int CWarpW     = (CtaWarps > 1) ? $clog2(CtaWarps) : 1,  // warp in its CTA
  localparam int NumRows    = NumCtas * CtaWarps,
  localparam int PtrW       = $clog2(QueueDepth + 1),
  localparam int NumEnt     = NumCtas * 16,
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
  input  logic [NumRows*WarpW-1:0]  slot_of_i,       // (CTA, warp in CTA) -> slot

  // The instruction in flight.
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::inst_t        inst_i,          // the guard was applied in DE
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [AddrW-1:0]          pc_i,
  input  logic [31:0]               active_i,
  input  logic [31:0]               exec_i,
  // brx/jmx/ret: each thread's target (the low 22 bits of ra, ret: r31), from the register
  // file's port a: the group it holds (rd_grp_i), each group in EXEC's pass on it (targets_i:
  // such an instruction in EXEC; they are kept for the divergence unit's later steps).
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [NumLanes*32-1:0]    opa_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [PassW-1:0]          rd_grp_i,
  input  logic                      targets_i,
  input  logic [WarpW-1:0]          wic_i,           // its warp index in its CTA

  // Divergence unit.
  input  logic                      du_valid_i,
  input  logic [WarpW-1:0]          du_warp_i,
  input  logic [WarpW-1:0]          du_next_warp_i,  // a DuNext's warp (next_ready's)
  input  simt_pkg::du_req_t         du_req_i,
  output logic                      du_ready_o,
  output simt_pkg::du_ans_t         du_ans_o,        // (wake_ready: = du_ready_o for a
                                                     // DuBarWake)
  output logic                      du_evt_pop_o,
  output logic                      du_evt_discard_o,
  input  logic [WarpW-1:0]          iss_warp_i,
  output logic [AddrW-1:0]          iss_pc_o,
  output logic [31:0]               iss_active_o,
  input  logic [WarpW-1:0]          qry_warp_i,
  output logic [AddrW-1:0]          qry_pc_o,
  output logic [31:0]               qry_active_o,
  output logic [127:0]              qry_reason_o,
  output logic [PtrW-1:0]           qry_count_o,
  output logic                      qry_done_o,      // nothing active, no token, all exited
  output logic                      qry_busy_o,      // not done, whatever the queue holds
  output logic [NumWarps-1:0]       stalled_o,
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

  // Barrier unit.
  input  logic                      bu_valid_i,
  input  logic [CtaW-1:0]           bu_cta_i,
  input  simt_pkg::bu_req_t         bu_req_i,
  output logic                      bu_ready_o,
  output simt_pkg::bu_ans_t         bu_ans_o,
  output logic                      wake_valid_o,    // a wake token for warp slot wake_slot_o
  input  logic                      wake_ready_i,
  output logic [WarpW-1:0]          wake_slot_o,
  output logic [31:0]               wake_mask_o,
  output logic [AddrW-1:0]          wake_resume_o,
  input  logic [CtaW+3:0]           sb_rd_idx_i,
  output logic [1:0]                sb_rd_state_o,
  output logic [AddrW-1:0]          sb_rd_tag_o,
  output logic                      sb_upd_valid_o,
  output logic [CtaW+3:0]           sb_upd_idx_o,
  output logic [1:0]                sb_upd_state_o,
  output logic [AddrW-1:0]          sb_upd_tag_o,
  output logic [NumEnt-1:0]         bar_busy_o,
  output logic [NumEnt-1:0]         bar_static_long_o,
  output logic [NumEnt-1:0]         bar_sec_active_o,
  output logic [NumEnt-1:0]         bar_sec_queued_o,
  output logic [NumEnt-1:0]         bar_sec_excl_o,
  output logic                      trace_tmo_o,     // a portion started by TIMEOUT ...
  output logic [WarpW-1:0]          trace_tmo_warp_o,  // ... a warp slot of its CTA
  output logic [3:0]                trace_tmo_id_o,
  output logic                      trace_grant_o,   // a critical section granted
  output logic [WarpW-1:0]          trace_grant_warp_o,
  output logic [3:0]                trace_grant_id_o
);

  localparam int BuEntW = $clog2(NumEnt);

  // ---- Divergence unit -------------------------------------------------------------------
  logic [32*AddrW-1:0] thread_target;
  /* verilator lint_off UNUSED */
  logic [63:0]               q_front;
  logic [simt_pkg::SumW-1:0] q_types;
  /* verilator lint_on UNUSED */
  if (NumPasses == 1) begin : g_ttarget
    // Port a holds the whole warp's targets until the divergence unit is done with them (no
    // read before the next instruction's DE: simt_sm asserts it).
    for (genvar l = 0; l < 32; l++) begin : g_thread
      assign thread_target[l*AddrW +: AddrW] = opa_i[l*32 +: AddrW];
    end
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_grp;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_grp = ^{rd_grp_i, targets_i};
  end else begin : g_ttarget
    // Each pass's group is kept (the instruction's passes visit every group with an
    // executing thread, and the divergence unit reads the targets of those only). With
    // FastThreadTargets the pass on the port in EXEC is passed on as it is read (the last
    // pass: the fast path's step in that cycle). Without, the unit reads targets in its
    // sequence only, from the cycle after the request's first, when tgt_q holds every pass:
    // the port's read data then ends here, not in the sequence's group compares (a routed
    // critical path of the board core, 2026-12-08, issue #26).
    logic [32*AddrW-1:0] tgt_d, tgt_q;
    always_comb begin
      tgt_d = tgt_q;
      for (int t = 0; t < 32; t++) begin
        thread_target[t*AddrW +: AddrW] = tgt_q[t*AddrW +: AddrW];
        if (targets_i && PassW'(t / NumLanes) == rd_grp_i) begin
          tgt_d[t*AddrW +: AddrW] = opa_i[(t % NumLanes)*32 +: AddrW];
          if (FastThreadTargets) begin
            thread_target[t*AddrW +: AddrW] = opa_i[(t % NumLanes)*32 +: AddrW];
          end
        end
      end
    end
    always_ff @(posedge clk_i) begin
      tgt_q <= tgt_d;
    end
`ifdef VERILATOR
    // Without FastThreadTargets the unit reads targets only outside IDLE and PUSH (its
    // sequence), where no pass brings targets on the port, so tgt_q is what it read before.
    always_ff @(posedge clk_i) begin
      if (rst_ni && !FastThreadTargets)
        assert (!(targets_i && !u_du.at_rest))
          else $error("sm sync: thread targets on port a while the divergence unit sequences");
    end
`endif
  end

  simt_divergence_unit #(
    .NumWarps  (NumWarps),
    .Depth     (QueueDepth),
    .DequeMode (DequeMode),
    .FastThreadTargets (FastThreadTargets)
  ) u_du (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .cfg_stack_i         (cfg_stack_i),
    .lfsr_load_i         (lfsr_load_i),
    .lfsr_seed_i         (cfg_lfsr_seed_i),
    .req_valid_i         (du_valid_i),
    .req_op_i            (du_req_i.op),
    .req_warp_i          (du_warp_i),
    .req_next_warp_i     (du_next_warp_i),
    .req_guard_i         (du_req_i.guard),
    .req_has_target_i    (du_req_i.has_target),
    .req_target_i        (du_req_i.target),
    .req_thread_target_i (thread_target),
    .req_wake_mask_i     (wake_mask_o),    // the barrier unit's token, straight
    .req_wake_target_i   (wake_resume_o),
    .req_yield_kind_i    (inst_i.sub),
    .req_ready_o         (du_ready_o),
    .req_next_ready_o    (du_ans_o.next_ready),
    .req_wake_ready_o    (du_ans_o.wake_ready),
    .req_done_o          (du_ans_o.done),
    .resp_link_mask_o    (du_ans_o.link_mask),
    .resp_link_value_o   (du_ans_o.link_value),
    .resp_yield_fired_o  (du_ans_o.yield_fired),
    .resp_wake_fast_o    (du_ans_o.wake_fast),
    .resp_wake_mask_o    (du_ans_o.wake_mask),
    .evt_pop_o           (du_evt_pop_o),
    .evt_discard_o       (du_evt_discard_o),
    .iss_warp_i          (iss_warp_i),
    .iss_pc_o            (iss_pc_o),
    .iss_active_o        (iss_active_o),
    .qry_warp_i          (qry_warp_i),
    .qry_pc_o            (qry_pc_o),
    .qry_active_o        (qry_active_o),
    .qry_reason_o        (qry_reason_o),
    .qry_q_count_o       (qry_count_o),
    .q_front_o           (q_front),
    .q_types_o           (q_types),
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

  // The warp's done condition: nothing active, no token, every thread exited or never
  // launched. qry_busy_o does not read the queue; the count is the query warp's own read
  // (not the queue's query port, which the divergence unit gives to a request presented in
  // the same cycle), so done does not wait for the request's warp select.
  always_comb begin
    qry_busy_o = qry_active_o != '0;
    for (int l = 0; l < 32; l++) begin
      if (qry_reason_o[l*4 +: 4] != simt_pkg::RsnNone &&
          qry_reason_o[l*4 +: 4] != simt_pkg::RsnExit) qry_busy_o = 1'b1;
    end
  end
  assign qry_done_o = !qry_busy_o && (qry_count_o == '0);

  // ---- Barrier unit ---------------------------------------------------------------------
  logic [CtaW-1:0]        wake_cta, tmo_cta, grant_cta;
  logic [CWarpW-1:0]      wake_warp;
  logic [BuEntW-1:0]      sb_upd_idx, tmo_bar, grant_bar;
  /* verilator lint_off UNUSED */
  logic [NumBarSlots-1:0] bu_slots;
  logic [2:0]             bu_fsm_state;
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
    .Warps    (CtaWarps),
    .TagW     (AddrW),
    .TimeW    (16),
    .NumSlots (NumBarSlots),
    .PrioW    (2),
    .TsRamStyle (BarRamStyle)
  ) u_bu (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .req_valid_i      (bu_valid_i),
    .req_ready_o      (bu_ready_o),
    .req_op_i         (bu_req_i.op),
    .req_cta_i        (bu_cta_i),
    .req_id_i         (inst_i.rd[3:0]),
    .req_warp_i       (CWarpW'(wic_i)),  // below CtaWarps (the launch's limit)
    .req_mask_i       (exec_i),
    .req_tag_i        (pc_i),
    .req_kind_i       ((inst_i.op == simt_pkg::OpBarSync) ? 2'd0 :
                       (inst_i.op == simt_pkg::OpBarTopOcs) ? 2'd1 : 2'd2),
    .req_excl_i       (inst_i.sub[1]),
    .req_nb_i         (inst_i.sub[2]),
    .req_count_i      (bu_req_i.count),
    .req_imp_i        (inst_i.sub[3]),
    .req_min_i        ({2'b00, inst_i.imm[21:12]}),
    .req_timeout_i    ({1'b0, inst_i.rb, inst_i.imm[31:22]}),
    .req_pass_i       (inst_i.sub[4]),
    .req_nonpart_i    ((active_i & ~exec_i) != '0),
    .resp_refused_o   (bu_ans_o.refused),
    .resp_pass_o      (bu_ans_o.pass),
    .resp_sleep_o     (bu_ans_o.sleep),
    .resp_lane_o      (bu_ans_o.sleep_lane),
    .wake_valid_o     (wake_valid_o),
    .wake_ready_i     (wake_ready_i),
    .wake_cta_o       (wake_cta),
    .wake_warp_o      (wake_warp),
    .wake_mask_o      (wake_mask_o),
    .wake_resume_o    (wake_resume_o),
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
    .tmo_fire_o       (trace_tmo_o),
    .tmo_fire_bar_o   (tmo_bar),
    .grant_fire_o     (trace_grant_o),
    .grant_fire_bar_o (grant_bar),
    .sb_rd_idx_i      (BuEntW'(sb_rd_idx_i)),
    .sb_rd_state_o    (sb_rd_state_o),
    .sb_rd_tag_o      (sb_rd_tag_o),
    .sb_upd_valid_o   (sb_upd_valid_o),
    .sb_upd_idx_o     (sb_upd_idx),
    .sb_upd_state_o   (sb_upd_state_o),
    .sb_upd_tag_o     (sb_upd_tag_o)
  );
  if (CWarpW < WarpW) begin : g_cta_warps
    // A CTA's warps are fewer than the slots: the warp index's high bits are 0 (asserted).
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_wic_high;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_wic_high = ^wic_i[WarpW-1:CWarpW];
  end
`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni && bu_valid_i) begin
      assert (32'(wic_i) < CtaWarps)
        else $error("sm sync: a barrier request from warp %0d of a CTA of at most %0d", wic_i,
                    CtaWarps);
    end
  end
`endif
  assign sb_upd_idx_o = (CtaW + 4)'(sb_upd_idx);
  if (CtaW + 4 > BuEntW) begin : g_one_cta
    // One CTA: the index's CTA bit is always 0 (CtaW is 1 bit there, the table's is 0).
    logic unused_sb_rd_cta;
    assign unused_sb_rd_cta = ^sb_rd_idx_i[CtaW+3:BuEntW];
  end

  // (CTA, warp in CTA) -> warp slot: of the wake token offered, and of the first warp of
  // a CTA whose barrier timed out or whose section was granted.
  assign tmo_cta            = CtaW'({1'b0, tmo_bar} >> 4);  // 0-extended: 1 CTA
  assign grant_cta          = CtaW'({1'b0, grant_bar} >> 4);
  localparam int RowW = (NumRows > 1) ? $clog2(NumRows) : 1;
  logic [RowW-1:0] wake_row, tmo_row, grant_row;
  assign wake_row  = RowW'(simt_pkg::cta_warp_row(32'(wake_cta), 32'(wake_warp), CtaWarps));
  assign tmo_row   = RowW'(simt_pkg::cta_warp_row(32'(tmo_cta), 0, CtaWarps));
  assign grant_row = RowW'(simt_pkg::cta_warp_row(32'(grant_cta), 0, CtaWarps));
  assign wake_slot_o        = slot_of_i[wake_row*WarpW +: WarpW];
  assign trace_tmo_warp_o   = slot_of_i[tmo_row*WarpW +: WarpW];
  assign trace_tmo_id_o     = tmo_bar[3:0];
  assign trace_grant_warp_o = slot_of_i[grant_row*WarpW +: WarpW];
  assign trace_grant_id_o   = grant_bar[3:0];

endmodule
