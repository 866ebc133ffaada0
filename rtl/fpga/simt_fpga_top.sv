// FPGA top of the SM core: what a board design instantiates. The core (simt_sm), an on-chip
// global data memory in block RAM serving the core's memory port, and a host port: a simple
// 32-bit word-addressed bus (one access per cycle, reads answer in the next cycle) through
// which a host (a soft CPU, a UART or SPI bridge) loads code, params and data, sets up and
// starts a launch, polls done/fault, reads counters and data back, and services token-queue
// overflows through the divergence unit's maintenance port (the runtime's job, seed 002).
//
// Host word addresses (docs/blocks/fpga_top.md):
//   0x0000       W: bit 0 starts the launch, bit 1 resets the core (the core starts once per
//                reset: a host resets it before each launch).  R: status {exc, fault, done, busy}
//   0x0001-08    RW launch: ntid, nctaid, code size, param words, shared bytes,
//                mode {timeout origin[1:0], policy[2:0], stack}, LFSR seed, static limit
//   0x0009       RW barrier-id priorities for the slot arbiter (id i at bits 2i+1:2i)
//   0x0010-14    R fault: cause, warp, pc, {lane valid, lane}, address
//   0x0018-19    R queue exception: {back, warp}; {tail, head} pointers
//   0x0020       W maintenance command {idx, warp, op} (issued when written); 0x0021 W {tail, head};
//                0x0022/23 W write data low/high; R 0x0020 {read data valid, busy};
//                0x0022/23 R read data low/high
//   0x0030-3E    R geometry (constants): magic "SIMT", layout version, warp slots, resident CTAs,
//                queue depth, instruction words, param words, shared bytes per CTA, data words,
//                FP lanes, line bytes, barrier slots, threads per warp, physical ALU lanes,
//                warps per CTA; writes are ignored
//   0x0040-5F    R performance counter n (docs/blocks/sm.md)
//   0x1000+2i    W instruction i, low word (held), then 0x1000+2i+1 the high word (written)
//   0x2000+i     W param word i
//   0x8000+i     RW global data word i (byte address 4i for the kernel); the core's own
//                accesses come first: host_ready_o is low while the core uses the memory.
module simt_fpga_top #(
  parameter int NumWarps    = 2,
  parameter int NumCtas     = 2,
  parameter int CtaWarps    = NumWarps,  // warps a CTA may have (simt_sm)
  parameter int QueueDepth  = 16,
  parameter int NumBarSlots = 4,
  parameter int ImemDepth   = 256,
  parameter int ParamWords  = 64,    // an OpenCL kernel: its arguments and 15-23 hidden words
  parameter int SharedWords = 256,
  parameter int DataWords   = 2048,
  parameter int SharedBanks = 4,    // shared-memory banks: a 32 x 4 crossbar, not 32 x 32
  parameter int LineBytes   = 16,   // the core's memory port: narrow lines keep the LSU small
  parameter int MemIdW      = 2,
  parameter bit HasFpu      = 1'b0, // FP32 lanes, FpLanes of them: 32 do not fit a board-sized
                                    // part, 4 route (docs/blocks/fpu.md, docs/synthesis.md)
  parameter int NumLanes    = 32,   // physical ALU lanes (32, 16, 8): a warp in 32/NumLanes passes
  parameter int FpLanes     = NumLanes,  // FP lanes: NumLanes or a divisor (32/FpLanes passes)
  parameter bit FastThreadTargets = 1'b0,  // the divergence unit's fast path for brx/jmx/ret:
                                           // off, the small-FPGA set (simt_sm)
  parameter bit IssueBypass = 1'b0,        // woken and given-back warps picked in that cycle
                                           // (simt_sm): off, a cycle each for the clock
  parameter     BarRamStyle = "auto",      // simt_sm's (a board top for a part with LUT RAM)
  localparam int WarpW      = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int ImemAW     = $clog2(ImemDepth),
  localparam int ParamAW    = $clog2(ParamWords),
  localparam int DataAW     = $clog2(DataWords),
  localparam int PtrW       = $clog2(QueueDepth + 1)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        host_valid_i,
  output logic        host_ready_o,
  input  logic        host_we_i,
  input  logic [15:0] host_addr_i,
  input  logic [31:0] host_wdata_i,
  output logic        host_rvalid_o,
  output logic [31:0] host_rdata_o,
  output logic        busy_o,
  output logic        done_o,
  output logic        fault_o,
  output logic        exc_o           // a token queue waits for the host's re-centring
);

  // ---- host decode ----------------------------------------------------------------------
  logic host_fire, host_wr, host_rd;
  logic sel_ctrl, sel_imem, sel_param, sel_data;
  assign sel_ctrl  = host_addr_i[15:8] == 8'h00;
  assign sel_imem  = host_addr_i[15:12] == 4'h1;
  assign sel_param = host_addr_i[15:12] == 4'h2;
  assign sel_data  = host_addr_i[15];

  // ---- core reset by the host --------------------------------------------------------------
  // A write of bit 1 to 0x0000 resets the core, the data memory's port state and the
  // maintenance bridge for one cycle (not the launch registers, not the memories' contents):
  // the core starts once per reset, so a host resets it before each launch, and stops a
  // kernel it has given up on. From a flop: a clean asynchronous reset.
  logic core_rst_q, core_rst_n;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      core_rst_q <= 1'b0;
    end else begin
      core_rst_q <= host_wr && sel_ctrl && host_addr_i[7:0] == 8'h00 && host_wdata_i[1];
    end
  end
  assign core_rst_n = rst_ni && !core_rst_q;

  // ---- launch registers -------------------------------------------------------------------
  logic [15:0]       ntid_q, nctaid_q, seed_q, slimit_q;
  logic [ImemAW:0]   code_size_q;
  logic [ParamAW:0]  param_words_q;
  logic [31:0]       shared_bytes_q, imem_lo_q;
  logic [5:0]        mode_q;
  logic [31:0]       bprio_q;
  logic              start_q;

  // ---- maintenance port bridge ------------------------------------------------------------
  logic [1:0]        mnt_opb_q;
  simt_pkg::mnt_op_e mnt_op_q;
  logic [WarpW-1:0]  mnt_warp_q;
  logic [PtrW-2:0]   mnt_idx_q;
  logic [PtrW-1:0]   mnt_head_q, mnt_tail_q;
  logic [63:0]       mnt_wdata_q, mnt_rdata_q;
  logic              mnt_pend_q, mnt_rd_wait_q, mnt_rvalid_q;

  // ---- core -------------------------------------------------------------------------------
  logic              core_busy, core_done, core_fault;
  simt_pkg::fault_e  fault_cause;
  logic [WarpW-1:0]  fault_warp;
  logic [21:0]       fault_pc;
  logic              fault_lane_valid;
  logic [4:0]        fault_lane;
  logic [31:0]       fault_addr;
  logic                   mem_req_valid, mem_req_ready, mem_req_we;
  logic [MemIdW-1:0]      mem_req_id, mem_rsp_id;
  logic [3:0]             mem_req_amo;
  logic [31:0]            mem_req_addr, mem_req_cmp;
  logic [LineBytes-1:0]   mem_req_be;
  logic [LineBytes*8-1:0] mem_req_wdata, mem_rsp_rdata;
  logic                   mem_rsp_valid, mem_rsp_ready, mem_rsp_err;
  logic                   data_host_ready;
  logic [31:0]            data_host_rdata;
  logic              exc_valid, exc_back;
  logic              exc_pend_q;      // an overflow waits for the host (exc_valid is a pulse)
  logic [WarpW-1:0]  exc_warp;
  logic [PtrW-1:0]   q_head, q_tail;
  logic              mnt_ready, mnt_rvalid;
  logic [63:0]       mnt_rdata;
  logic [4:0]        perf_sel;
  logic [31:0]       perf;
  simt_pkg::sched_policy_e policy;

  // The core has the data memory first; the host waits for a free cycle.
  assign host_ready_o = !sel_data || data_host_ready;
  assign host_fire    = host_valid_i && host_ready_o;
  assign host_wr      = host_fire && host_we_i;
  assign host_rd      = host_fire && !host_we_i;
  assign perf_sel     = host_addr_i[4:0];

  simt_sm #(
    .NumWarps    (NumWarps),
    .NumCtas     (NumCtas),
    .CtaWarps    (CtaWarps),
    .QueueDepth  (QueueDepth),
    .NumBarSlots (NumBarSlots),
    .ImemDepth   (ImemDepth),
    .ParamWords  (ParamWords),
    .SharedWords (SharedWords),
    .SharedBanks (SharedBanks),
    .LineBytes   (LineBytes),
    .MemIdW      (MemIdW),
    .LsuSlots    (4),
    // The sender's copies (2 x NumLanes x 32 flip-flops) would serve only accesses of one
    // group of lanes, few at 8 lanes; the board core keeps its area.
    .LsuDetach   (1'b0),
    .L1Bytes     (0),     // the data memory is on-chip block RAM: nothing for a cache to hide
    .HasFpu      (HasFpu),
    .NumLanes    (NumLanes),
    .FpLanes     (FpLanes),
    .FastThreadTargets (FastThreadTargets),
    .IssueBypass       (IssueBypass),
    .BarRamStyle (BarRamStyle)
  ) u_sm (
    .clk_i               (clk_i),
    .rst_ni              (core_rst_n),
    .imem_we_i           (host_wr && sel_imem && host_addr_i[0]),
    .imem_waddr_i        (host_addr_i[ImemAW:1]),
    .imem_wdata_i        ({host_wdata_i, imem_lo_q}),
    .param_we_i          (host_wr && sel_param),
    .param_waddr_i       (host_addr_i[ParamAW-1:0]),
    .param_wdata_i       (host_wdata_i),
    .cfg_code_size_i     (code_size_q),
    .cfg_param_words_i   (param_words_q),
    .cfg_ntid_i          (ntid_q),
    .cfg_nctaid_i        (nctaid_q),
    .cfg_global_bytes_i  (32'(DataWords * 4)),
    .cfg_shared_bytes_i  (shared_bytes_q),
    .cfg_stack_i         (mode_q[0]),
    .cfg_lfsr_seed_i     (seed_q),
    .cfg_policy_i        (policy),
    .cfg_static_limit_i  (slimit_q),
    .cfg_tmo_origin_i    (mode_q[5:4]),
    .cfg_bar_prio_i      (bprio_q),
    .start_i             (start_q),
    .busy_o              (core_busy),
    .done_o              (core_done),
    .fault_o             (core_fault),
    .fault_cause_o       (fault_cause),
    .fault_warp_o        (fault_warp),
    .fault_pc_o          (fault_pc),
    .fault_lane_valid_o  (fault_lane_valid),
    .fault_lane_o        (fault_lane),
    .fault_addr_o        (fault_addr),
    .mem_req_valid_o     (mem_req_valid),
    .mem_req_ready_i     (mem_req_ready),
    .mem_req_id_o        (mem_req_id),
    .mem_req_we_o        (mem_req_we),
    .mem_req_amo_o       (mem_req_amo),
    .mem_req_addr_o      (mem_req_addr),
    .mem_req_be_o        (mem_req_be),
    .mem_req_wdata_o     (mem_req_wdata),
    .mem_req_cmp_o       (mem_req_cmp),
    .mem_rsp_valid_i     (mem_rsp_valid),
    .mem_rsp_ready_o     (mem_rsp_ready),
    .mem_rsp_id_i        (mem_rsp_id),
    .mem_rsp_err_i       (mem_rsp_err),
    .mem_rsp_rdata_i     (mem_rsp_rdata),
    .exc_valid_o         (exc_valid),
    .exc_warp_o          (exc_warp),
    .exc_back_o          (exc_back),
    .q_head_o            (q_head),
    .q_tail_o            (q_tail),
    .mnt_valid_i         (mnt_pend_q),
    .mnt_op_i            (mnt_op_q),
    .mnt_warp_i          (mnt_warp_q),
    .mnt_idx_i           (mnt_idx_q),
    .mnt_wdata_i         (mnt_wdata_q),
    .mnt_head_i          (mnt_head_q),
    .mnt_tail_i          (mnt_tail_q),
    .mnt_ready_o         (mnt_ready),
    .mnt_rvalid_o        (mnt_rvalid),
    .mnt_rdata_o         (mnt_rdata),
    // Trace and debug outputs serve simulation; a board leaves them open.
    /* verilator lint_off PINCONNECTEMPTY */
    .retire_valid_o      (),
    .retire_warp_o       (),
    .retire_pc_o         (),
    .retire_exec_o       (),
    .retire_active_o     (),
    .trace_inflight_o    (),
    .trace_rf_we_o       (),
    .trace_rf_waddr_o    (),
    .trace_rf_wdata_o    (),
    .trace_rf_late_o     (),
    .trace_cta_retire_o  (),
    .trace_cta_retire_idx_o (),
    .trace_mem_quiet_o   (),
    .trace_wake_o        (),
    .trace_wake_warp_o   (),
    .trace_wake_mask_o   (),
    .trace_wake_resume_o (),
    .trace_wake_late_o   (),
    .trace_bar_accept_o  (),
    .trace_tmo_o         (),
    .trace_tmo_warp_o    (),
    .trace_tmo_id_o      (),
    .trace_bu_req_o      (),
    .trace_grant_o       (),
    .trace_grant_warp_o  (),
    .trace_grant_id_o    (),
    .trace_launch_o      (),
    .trace_launch_warp_o (),
    .dbg_warp_i          ('0),
    .dbg_resident_o      (),
    .dbg_done_o          (),
    .dbg_held_o          (),
    .dbg_ctaid_o         (),
    .dbg_warp_in_cta_o   (),
    .dbg_pc_o            (),
    .dbg_active_o        (),
    .dbg_reason_o        (),
    .dbg_q_count_o       (),
    .quiet_o             (),
    .bar_busy_o          (),
    .bar_static_long_o   (),
    .bar_sec_active_o    (),
    .bar_sec_queued_o    (),
    .bar_sec_excl_o      (),
    /* verilator lint_on PINCONNECTEMPTY */
    .perf_sel_i          (perf_sel),
    .perf_o              (perf)
  );

  // Register bits to the package's enums without a cast (Yosys 0.23 has none).
  always_comb begin
    unique case (mode_q[3:1])
      3'd0:    policy = simt_pkg::PolOldest;
      3'd1:    policy = simt_pkg::PolProgram;
      3'd2:    policy = simt_pkg::PolCta;
      3'd3:    policy = simt_pkg::PolGto;
      default: policy = simt_pkg::PolLrr;
    endcase
    unique case (mnt_opb_q)
      2'd0:    mnt_op_q = simt_pkg::MntStall;
      2'd1:    mnt_op_q = simt_pkg::MntRead;
      2'd2:    mnt_op_q = simt_pkg::MntWrite;
      default: mnt_op_q = simt_pkg::MntResume;
    endcase
  end

  // ---- global data memory: the core's port, else the host's -------------------------------
  simt_mem_sram #(
    .Words     (DataWords),
    .LineBytes (LineBytes),
    .IdW       (MemIdW)
  ) u_data (
    .clk_i        (clk_i),
    .rst_ni       (core_rst_n),
    .req_valid_i  (mem_req_valid),
    .req_ready_o  (mem_req_ready),
    .req_id_i     (mem_req_id),
    .req_we_i     (mem_req_we),
    .req_amo_i    (mem_req_amo),
    .req_addr_i   (mem_req_addr),
    .req_be_i     (mem_req_be),
    .req_wdata_i  (mem_req_wdata),
    .req_cmp_i    (mem_req_cmp),
    .rsp_valid_o  (mem_rsp_valid),
    .rsp_ready_i  (mem_rsp_ready),
    .rsp_id_o     (mem_rsp_id),
    .rsp_err_o    (mem_rsp_err),
    .rsp_rdata_o  (mem_rsp_rdata),
    .host_valid_i (host_valid_i && sel_data),
    .host_ready_o (data_host_ready),
    .host_we_i    (host_we_i),
    .host_addr_i  (host_addr_i[DataAW-1:0]),
    .host_wdata_i (host_wdata_i),
    .host_rdata_o (data_host_rdata)
  );

  // ---- geometry ---------------------------------------------------------------------------
  // What this build can run, read-only at 0x0030-0x003E, so that one host drives a board built
  // with any parameters: it checks the magic and the layout version, then takes its limits
  // (threads per CTA, memories, the queue depth its re-centring needs) from the board. Only
  // constants, muxed into the register read path. A new or reordered word is a new version.
  localparam logic [31:0] GeomMagic   = 32'h5349_4D54;  // "SIMT"
  localparam logic [31:0] GeomVersion = 32'd3;          // the layout of 0x0030-0x003E

  // ---- host registers and read data -------------------------------------------------------
  logic [31:0] ctrl_rdata;
  always_comb begin
    ctrl_rdata = '0;
    unique case (host_addr_i[7:0])
      8'h00: ctrl_rdata = {28'd0, exc_pend_q, core_fault, core_done, core_busy};
      8'h01: ctrl_rdata = {16'd0, ntid_q};
      8'h02: ctrl_rdata = {16'd0, nctaid_q};
      8'h03: ctrl_rdata = 32'(code_size_q);
      8'h04: ctrl_rdata = 32'(param_words_q);
      8'h05: ctrl_rdata = shared_bytes_q;
      8'h06: ctrl_rdata = {26'd0, mode_q};
      8'h07: ctrl_rdata = {16'd0, seed_q};
      8'h08: ctrl_rdata = {16'd0, slimit_q};
      8'h09: ctrl_rdata = bprio_q;
      8'h10: ctrl_rdata = 32'(fault_cause);
      8'h11: ctrl_rdata = 32'(fault_warp);
      8'h12: ctrl_rdata = 32'(fault_pc);
      8'h13: ctrl_rdata = {26'd0, fault_lane_valid, fault_lane};
      8'h14: ctrl_rdata = fault_addr;
      8'h18: ctrl_rdata = {23'd0, exc_back, 8'(exc_warp)};
      8'h19: ctrl_rdata = {16'(q_tail), 16'(q_head)};
      8'h20: ctrl_rdata = {30'd0, mnt_rvalid_q, mnt_pend_q || mnt_rd_wait_q};
      8'h22: ctrl_rdata = mnt_rdata_q[31:0];
      8'h23: ctrl_rdata = mnt_rdata_q[63:32];
      8'h30: ctrl_rdata = GeomMagic;
      8'h31: ctrl_rdata = GeomVersion;
      8'h32: ctrl_rdata = 32'(NumWarps);
      8'h33: ctrl_rdata = 32'(NumCtas);
      8'h34: ctrl_rdata = 32'(QueueDepth);
      8'h35: ctrl_rdata = 32'(ImemDepth);
      8'h36: ctrl_rdata = 32'(ParamWords);
      8'h37: ctrl_rdata = 32'(SharedWords * 4);
      8'h38: ctrl_rdata = 32'(DataWords);
      8'h39: ctrl_rdata = {31'd0, HasFpu};
      8'h3A: ctrl_rdata = 32'(LineBytes);
      8'h3B: ctrl_rdata = 32'(NumBarSlots);
      8'h3C: ctrl_rdata = 32'(simt_pkg::WarpSize);
      8'h3D: ctrl_rdata = 32'(NumLanes);
      8'h3E: ctrl_rdata = 32'(CtaWarps);
      default: if (host_addr_i[7:5] == 3'b010) ctrl_rdata = perf;
    endcase
  end

  logic        rvalid_q, rdata_ram_q;
  logic [31:0] rdata_reg_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rvalid_q    <= 1'b0;
      rdata_ram_q <= 1'b0;
      rdata_reg_q <= '0;
    end else begin
      rvalid_q    <= host_rd;
      rdata_ram_q <= sel_data;
      rdata_reg_q <= sel_ctrl ? ctrl_rdata : '0;
    end
  end
  assign host_rvalid_o = rvalid_q;
  assign host_rdata_o  = rdata_ram_q ? data_host_rdata : rdata_reg_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ntid_q          <= '0;
      nctaid_q        <= '0;
      code_size_q     <= '0;
      param_words_q   <= '0;
      shared_bytes_q  <= '0;
      mode_q          <= 6'b001000;  // first-participant timeouts, loose round robin, deque
      seed_q          <= 16'd1;
      slimit_q        <= '0;
      bprio_q         <= '0;
      imem_lo_q       <= '0;
      start_q         <= 1'b0;
    end else begin
      start_q         <= host_wr && sel_ctrl && host_addr_i[7:0] == 8'h00 && host_wdata_i[0];
      if (host_wr && sel_imem && !host_addr_i[0]) imem_lo_q <= host_wdata_i;
      if (host_wr && sel_ctrl) begin
        unique case (host_addr_i[7:0])
          8'h01: ntid_q         <= host_wdata_i[15:0];
          8'h02: nctaid_q       <= host_wdata_i[15:0];
          8'h03: code_size_q    <= host_wdata_i[ImemAW:0];
          8'h04: param_words_q  <= host_wdata_i[ParamAW:0];
          8'h05: shared_bytes_q <= host_wdata_i;
          8'h06: mode_q         <= host_wdata_i[5:0];
          8'h07: seed_q         <= host_wdata_i[15:0];
          8'h08: slimit_q       <= host_wdata_i[15:0];
          8'h09: bprio_q        <= host_wdata_i;
          default: ;
        endcase
      end
    end
  end

  // Maintenance: a written command is offered until the port takes it; a read's data is
  // captured in the cycle after.
  always_ff @(posedge clk_i or negedge core_rst_n) begin
    if (!core_rst_n) begin
      mnt_opb_q     <= '0;
      mnt_warp_q    <= '0;
      mnt_idx_q     <= '0;
      mnt_head_q    <= '0;
      mnt_tail_q    <= '0;
      mnt_wdata_q   <= '0;
      mnt_rdata_q   <= '0;
      mnt_pend_q    <= 1'b0;
      mnt_rd_wait_q <= 1'b0;
      mnt_rvalid_q  <= 1'b0;
    end else begin
      if (host_wr && sel_ctrl) begin
        unique case (host_addr_i[7:0])
          8'h20: begin
            mnt_opb_q    <= host_wdata_i[1:0];
            mnt_warp_q   <= host_wdata_i[8 +: WarpW];
            mnt_idx_q    <= host_wdata_i[16 +: PtrW - 1];
            mnt_pend_q   <= 1'b1;
            mnt_rvalid_q <= 1'b0;
          end
          8'h21: begin
            mnt_head_q <= host_wdata_i[PtrW-1:0];
            mnt_tail_q <= host_wdata_i[16 +: PtrW];
          end
          8'h22: mnt_wdata_q[31:0]  <= host_wdata_i;
          8'h23: mnt_wdata_q[63:32] <= host_wdata_i;
          default: ;
        endcase
      end
      if (mnt_pend_q && mnt_ready) begin
        mnt_pend_q    <= 1'b0;
        mnt_rd_wait_q <= mnt_opb_q == 2'd1;
      end
      if (mnt_rd_wait_q && mnt_rvalid) begin
        mnt_rdata_q   <= mnt_rdata;
        mnt_rd_wait_q <= 1'b0;
        mnt_rvalid_q  <= 1'b1;
      end
    end
  end

  // The core signals an overflow for one cycle and then waits, its queue stalled, until the
  // host resumes it: the exception stays pending until a resume command is taken, so that a
  // host that polls the status (over a UART, thousands of cycles apart) sees it.
  always_ff @(posedge clk_i or negedge core_rst_n) begin
    if (!core_rst_n) begin
      exc_pend_q <= 1'b0;
    end else if (exc_valid) begin
      exc_pend_q <= 1'b1;
    end else if (mnt_pend_q && mnt_ready && mnt_opb_q == 2'd3) begin
      exc_pend_q <= 1'b0;
    end
  end

  assign busy_o  = core_busy;
  assign done_o  = core_done;
  assign fault_o = core_fault;
  assign exc_o   = exc_pend_q;

`ifdef VERILATOR
  // The host map's windows bound the parameters (and so what the geometry words report):
  // instruction i at 0x1000 + 2i, param words from 0x2000, data words from 0x8000, the warp
  // slot in 8 bits of 0x0018.
  initial begin
    assert (ImemDepth >= 2 && ImemDepth <= 2048)
      else $error("fpga_top: ImemDepth %0d outside the 0x1000-0x1FFF window", ImemDepth);
    assert (ParamWords >= 2 && ParamWords <= 4096)
      else $error("fpga_top: ParamWords %0d outside the 0x2000-0x2FFF window", ParamWords);
    assert (DataWords >= 2 && DataWords <= 32768)
      else $error("fpga_top: DataWords %0d outside the 0x8000-0xFFFF window", DataWords);
    assert (NumWarps >= 1 && NumWarps <= 256 && NumCtas >= 1 && QueueDepth >= 2)
      else $error("fpga_top: geometry NumWarps %0d NumCtas %0d QueueDepth %0d not reportable",
                  NumWarps, NumCtas, QueueDepth);
  end

  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // Kernel addresses are checked by the core against cfg_global_bytes_i.
      assert (!(mem_rsp_valid && mem_rsp_err))
        else $error("fpga_top: core access outside the data memory");
      assert (!(host_valid_i && host_we_i && sel_ctrl && host_addr_i[7:0] == 8'h20 && mnt_pend_q))
        else $error("fpga_top: maintenance command written while one is pending");
    end
  end
`endif

endmodule
