// Barrier unit (seed 000): the barrier and thread state tables (simt_barrier_table), the
// ready FIFO and 16 execution slots with the priority arbiter (simt_barrier_slots) and the
// thread select (simt_thread_select), joined.
//
// Requests come one at a time from the pipeline (launch, exit, arrive, reset, bottom); wake
// tokens {cta, warp, mask, resume} go to the divergence unit, which re-activates the threads
// through its token queue (ARCHITECTURE.md). Simple conditional barriers wake all their
// participants one warp per cycle; a critical section's portion queues for a slot, and when
// the arbiter grants it the section is in service: its members run one thread at a time in
// ascending logical id (logical id = warp * 32 + lane within the CTA, the launcher's order),
// each found by the thread select, which the sections in service share. Every granted slot
// is in service, so sections of different ids and CTAs, and a section nested in another, run
// at once; an exclusive one waits for every slot to be free and runs alone (seed 0105). The slot arbiter's priority is per barrier id
// (seed 0108), written through prio_we_i. The ready FIFO holds NumCtas * 16 - NumSlots
// entries (16 at the defaults), enough for every barrier of every resident CTA.
module simt_barrier_unit #(
  parameter int NumCtas   = 2,
  parameter int Warps     = 8,
  parameter int TagW      = 22,
  parameter int TimeW     = 16,
  parameter int NumSlots  = 16,
  parameter int PrioW     = 2,
  parameter int CntW      = 12,     // thread counts: COUNT, MIN, waiting, passed
  parameter     TsRamStyle = "auto", // the table's thread state RAMs (simt_barrier_table)
  localparam int NumEnt   = NumCtas * 16,
  // Every table entry has at most one item in the FIFO or a slot, so a FIFO of this depth
  // never holds the table back: a section in service can always take its bottom requests.
  localparam int FifoDepth = (NumEnt > NumSlots) ? NumEnt - NumSlots : 1,
  localparam int EntW     = $clog2(NumEnt),
  localparam int CtaW     = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int WarpW    = (Warps > 1) ? $clog2(Warps) : 1,
  localparam int SlotW    = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  localparam int BarW     = EntW,
  localparam int Thr      = Warps * 32,
  localparam int TidW     = $clog2(Thr),
  localparam int FCntW    = $clog2(FifoDepth + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // Requests.
  input  logic              req_valid_i,
  output logic              req_ready_o,
  input  logic [2:0]        req_op_i,        // simt_pkg::BuLaunch (0) .. BuBottom (4)
  input  logic [CtaW-1:0]   req_cta_i,
  input  logic [3:0]        req_id_i,
  input  logic [WarpW-1:0]  req_warp_i,
  input  logic [31:0]       req_mask_i,
  input  logic [TagW-1:0]   req_tag_i,
  input  logic [1:0]        req_kind_i,      // 0 bar.sync, 1 ordered, 2 unordered section
  input  logic              req_excl_i,
  input  logic              req_nb_i,
  input  logic [CntW-1:0]   req_count_i,
  input  logic              req_imp_i,
  input  logic [CntW-1:0]   req_min_i,
  input  logic [TimeW-1:0]  req_timeout_i,
  input  logic              req_pass_i,
  input  logic              req_nonpart_i,   // arrive: non-participating threads arrive too
  output logic              resp_refused_o,
  output logic              resp_pass_o,
  output logic              resp_sleep_o,
  output logic [4:0]        resp_lane_o,     // bottom: the lane that sleeps
  // Wake tokens for the divergence unit.
  output logic              wake_valid_o,
  input  logic              wake_ready_i,
  output logic [CtaW-1:0]   wake_cta_o,
  output logic [WarpW-1:0]  wake_warp_o,
  output logic [31:0]       wake_mask_o,
  output logic [TagW-1:0]   wake_resume_o,
  // Configuration: the slot arbiter's priority of a barrier id; the static-too-long limit.
  input  logic              prio_we_i,
  input  logic [3:0]        prio_id_i,
  input  logic [PrioW-1:0]  prio_val_i,
  input  logic [TimeW-1:0]  static_limit_i,
  input  logic [1:0]        cfg_tmo_origin_i,  // TIMEOUT origin (simt_barrier_table)
  // Status.
  output logic [NumEnt-1:0] busy_o,
  output logic [NumEnt-1:0] static_long_o,
  output logic [NumEnt-1:0] sec_active_o,    // a section's portion is queued or in service
  output logic [NumEnt-1:0] sec_queued_o,    // ... waits for a slot grant
  output logic [NumEnt-1:0] sec_excl_o,      // the entry's section is exclusive
  output logic [2:0]        fsm_state_o,     // the table's state (coverage of its transitions)
  output logic [NumSlots-1:0] slots_occupied_o,
  output logic [FCntW-1:0]  fifo_count_o,
  output logic              tmo_fire_o,       // a portion starts by its TIMEOUT ...
  output logic [BarW-1:0]   tmo_fire_bar_o,   // ... of this entry ({cta, id})
  output logic              grant_fire_o,     // the slot arbiter's grant starts a section ...
  output logic [BarW-1:0]   grant_fire_bar_o, // ... of this entry (co-simulation follows it)
  // The warp scheduler's barrier scoreboard (seed 0099; simt_barrier_table): read port and
  // update stream of {idle / static / dynamic, tag} per entry.
  input  logic [BarW-1:0]   sb_rd_idx_i,
  output logic [1:0]        sb_rd_state_o,
  output logic [TagW-1:0]   sb_rd_tag_o,
  output logic              sb_upd_valid_o,
  output logic [BarW-1:0]   sb_upd_idx_o,
  output logic [1:0]        sb_upd_state_o,
  output logic [TagW-1:0]   sb_upd_tag_o
);

  logic [PrioW-1:0] prio_q [16];

  logic             rdy_valid, rdy_ready, rdy_excl;
  logic [BarW-1:0]  rdy_bar;
  logic             grant_valid, grant_take;
  logic [SlotW-1:0] grant_slot;
  logic [BarW-1:0]  grant_bar;
  logic             rel_valid;
  logic [SlotW-1:0] rel_slot;
  logic             ts_start, ts_clear, ts_busy, ts_sel_valid, ts_done;
  logic [Thr-1:0]   ts_part;
  logic [TidW:0]    ts_from;
  logic [TidW-1:0]  ts_sel_tid;
  logic             excl_running, head_take;
  /* verilator lint_off UNUSED */
  logic [TidW-1:0]  ts_sel_phys;  // the unit names threads by CTA-relative id: map unused
  /* verilator lint_on UNUSED */

  simt_barrier_table #(
    .NumCtas (NumCtas),
    .Warps   (Warps),
    .TagW    (TagW),
    .TimeW    (TimeW),
    .CntW     (CntW),
    .NumSlots (NumSlots),
    .SlotW    (SlotW),
    .TsRamStyle (TsRamStyle)
  ) u_table (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .req_valid_i    (req_valid_i),
    .req_ready_o    (req_ready_o),
    .req_op_i       (req_op_i),
    .req_cta_i      (req_cta_i),
    .req_id_i       (req_id_i),
    .req_warp_i     (req_warp_i),
    .req_mask_i     (req_mask_i),
    .req_tag_i      (req_tag_i),
    .req_kind_i     (req_kind_i),
    .req_excl_i     (req_excl_i),
    .req_nb_i       (req_nb_i),
    .req_count_i    (req_count_i),
    .req_imp_i      (req_imp_i),
    .req_min_i      (req_min_i),
    .req_timeout_i  (req_timeout_i),
    .req_pass_i     (req_pass_i),
    .req_nonpart_i  (req_nonpart_i),
    .cfg_tmo_origin_i (cfg_tmo_origin_i),
    .resp_refused_o (resp_refused_o),
    .resp_pass_o    (resp_pass_o),
    .resp_sleep_o   (resp_sleep_o),
    .resp_lane_o    (resp_lane_o),
    .wake_valid_o   (wake_valid_o),
    .wake_ready_i   (wake_ready_i),
    .wake_cta_o     (wake_cta_o),
    .wake_warp_o    (wake_warp_o),
    .wake_mask_o    (wake_mask_o),
    .wake_resume_o  (wake_resume_o),
    .rdy_valid_o    (rdy_valid),
    .rdy_ready_i    (rdy_ready),
    .rdy_bar_o      (rdy_bar),
    .rdy_excl_o     (rdy_excl),
    .grant_valid_i  (grant_valid),
    .fifo_moving_i  (head_take),
    .grant_slot_i   (grant_slot),
    .grant_bar_i    (grant_bar),
    .grant_take_o   (grant_take),
    .rel_valid_o    (rel_valid),
    .rel_slot_o     (rel_slot),
    .ts_start_o     (ts_start),
    .ts_part_o      (ts_part),
    .ts_from_o      (ts_from),
    .ts_clear_o     (ts_clear),
    .ts_busy_i      (ts_busy),
    .ts_sel_valid_i (ts_sel_valid),
    .ts_sel_tid_i   (ts_sel_tid),
    .ts_done_i      (ts_done),
    .static_limit_i (static_limit_i),
    .static_long_o  (static_long_o),
    .busy_o         (busy_o),
    .sec_active_o   (sec_active_o),
    .sec_queued_o   (sec_queued_o),
    .sec_excl_o     (sec_excl_o),
    .fsm_state_o    (fsm_state_o),
    .tmo_fire_o     (tmo_fire_o),
    .tmo_fire_ent_o (tmo_fire_bar_o),
    .sb_rd_idx_i    (sb_rd_idx_i),
    .sb_rd_state_o  (sb_rd_state_o),
    .sb_rd_tag_o    (sb_rd_tag_o),
    .sb_upd_valid_o (sb_upd_valid_o),
    .sb_upd_idx_o   (sb_upd_idx_o),
    .sb_upd_state_o (sb_upd_state_o),
    .sb_upd_tag_o   (sb_upd_tag_o)
  );

  simt_barrier_slots #(
    .NumSlots  (NumSlots),
    .BarW      (BarW),
    .PrioW     (PrioW),
    .FifoDepth (FifoDepth)
  ) u_slots (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .ready_valid_i   (rdy_valid),
    .ready_ready_o   (rdy_ready),
    .ready_bar_i     (rdy_bar),
    .ready_excl_i    (rdy_excl),
    .ready_prio_i    (prio_q[rdy_bar[3:0]]),
    .release_valid_i (rel_valid),
    .release_slot_i  (rel_slot),
    .sel_ready_i     (grant_take),
    .grant_valid_o   (grant_valid),
    .grant_slot_o    (grant_slot),
    .grant_bar_o     (grant_bar),
    .occupied_o      (slots_occupied_o),
    .fifo_count_o    (fifo_count_o),
    .excl_running_o  (excl_running),
    .head_take_o     (head_take)
  );

  simt_thread_select #(
    .MaxThreads (Thr),
    .PhysW      (TidW)
  ) u_select (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .map_we_i     (1'b0),
    .map_group_i  ('0),
    .map_base_i   ('0),
    .start_i      (ts_start),
    .start_part_i (ts_part),
    .start_from_i (ts_from),
    .clear_i      (ts_clear),
    .busy_o       (ts_busy),
    .sel_valid_o  (ts_sel_valid),
    .sel_tid_o    (ts_sel_tid),
    .sel_phys_o   (ts_sel_phys),
    .done_o       (ts_done)
  );

  assign grant_fire_o     = grant_take;
  assign grant_fire_bar_o = grant_bar;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < 16; i++) prio_q[i] <= '0;
    end else if (prio_we_i) begin
      prio_q[prio_id_i] <= prio_val_i;
    end
  end

`ifdef VERILATOR
  // An exclusive section never shares the slots.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!excl_running || $onehot(slots_occupied_o))
        else $error("barrier_unit: exclusive section shares the slots");
    end
  end
`endif

endmodule
