// Load/store unit: a warp's loads, stores and atomics, lane by lane in ascending lane order
// and v4 elements in order (ISA.md), on global memory over a valid/ready port with one
// request outstanding, and on the on-chip shared memory it owns.
//
// Interface to the core (the one the memory system will keep): start_i hands in the
// instruction in EXEC with its executing lanes and operands (opa: base addresses, opb: store
// data or atomic operand, opc: cas swap value), which stay valid until done_o; the unit
// writes loaded words into the register file through its write port (one lane per cycle
// today), reads v4 store data through a read port, and ends with done_o, or fault_o with
// the lane and address (the sequencer stops the core then).
//
// A global access is requested in the cycle its address is checked (2 cycles per lane with
// a memory that answers in the next cycle). An atomic reads the old word, then writes the
// new one (the lane ALU's atomic result, or for cas the swap value on a match).
module simt_sm_lsu #(
  parameter int NumWarps    = 8,
  parameter int NumCtas     = 4,
  parameter int SharedWords = 1024,
  localparam int WarpW      = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int CtaW       = (NumCtas > 1) ? $clog2(NumCtas) : 1,
  localparam int ShAW       = $clog2(NumCtas * SharedWords),
  localparam int RfAW       = WarpW + 5
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [31:0]            cfg_global_bytes_i,
  input  logic [31:0]            cfg_shared_bytes_i,

  // The instruction.
  input  logic                   start_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  simt_sm_pkg::inst_t     inst_i,  // the guard was applied in DE
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]            exec_i,
  input  logic [WarpW-1:0]       warp_i,
  input  logic [CtaW-1:0]        cta_i,       // the warp's resident CTA (its shared memory)
  input  logic [32*32-1:0]       opa_i,
  input  logic [32*32-1:0]       opb_i,
  input  logic [32*32-1:0]       opc_i,
  output logic                   busy_o,
  output logic                   done_o,
  output simt_sm_pkg::fault_t    fault_o,
  output logic                   evt_stall_o, // waiting for the memory port

  // Register file.
  output logic                   rf_re_o,
  output logic [4:0]             rf_reg_o,
  input  logic [32*32-1:0]       rf_rdata_i,
  output logic [31:0]            rf_we_o,
  output logic [RfAW-1:0]        rf_waddr_o,
  output logic [32*32-1:0]       rf_wdata_o,

  // Shared memory clear at CTA launch.
  input  logic                   sh_clr_i,
  input  logic [ShAW-1:0]        sh_clr_addr_i,

  // Global memory: one request at a time, one response per request.
  output logic                   mem_req_valid_o,
  input  logic                   mem_req_ready_i,
  output logic                   mem_req_we_o,
  output logic [31:0]            mem_req_addr_o,
  output logic [31:0]            mem_req_wdata_o,
  input  logic                   mem_rsp_valid_i,
  input  logic [31:0]            mem_rsp_rdata_i
);

  simt_sm_pkg::lsu_state_e state_d, state_q;
  logic [31:0] mrem_d, mrem_q;    // lanes still to serve
  logic [4:0]  mlane_d, mlane_q;
  logic [1:0]  melem_d, melem_q;  // v4 element
  logic [31:0] maddr_d, maddr_q;
  logic [31:0] mdata_d, mdata_q;  // store data / atomic operand, then the old word
  logic [31:0] mnew_d, mnew_q;    // global atomic: the word to write back

  /* verilator lint_off UNUSEDSIGNAL */
  simt_sm_pkg::cls_t cls;
  /* verilator lint_on UNUSEDSIGNAL */
  assign cls = simt_sm_pkg::classify(inst_i.op);

  // The current (lane, element)'s address and its checks.
  logic [31:0] lane_base, lane_addr, lane_b, lane_c;
  logic        lane_misaligned, lane_out_of_range;
  assign lane_base = inst_i.imm_b ? 32'd0 : opa_i[mlane_q*32 +: 32];
  assign lane_addr = lane_base + inst_i.imm + {28'd0, melem_q, 2'b00};
  assign lane_b    = opb_i[mlane_q*32 +: 32];
  assign lane_c    = opc_i[mlane_q*32 +: 32];
  always_comb begin
    if (cls.shared) begin
      lane_misaligned   = lane_addr[1:0] != 2'b00;
      lane_out_of_range = ({1'b0, lane_addr} + 33'd4) > {1'b0, cfg_shared_bytes_i};
    end else begin
      lane_misaligned   = (cls.v4 && melem_q == 2'd0) ? lane_addr[3:0] != 4'd0
                                                      : lane_addr[1:0] != 2'b00;
      lane_out_of_range = ({1'b0, lane_addr} + 33'd4) > {1'b0, cfg_global_bytes_i};
    end
  end

  // ---- Shared memory ------------------------------------------------------------------------
  logic            sh_we, sh_re;
  logic [ShAW-1:0] sh_waddr, sh_raddr, sh_index;
  logic [31:0]     sh_wdata, sh_rdata;
  assign sh_index = ShAW'(cta_i) * ShAW'(SharedWords) + ShAW'(lane_addr[31:2]);
  simt_ram_1r1w #(.Width(32), .Depth(NumCtas * SharedWords)) u_shared (
    .clk_i   (clk_i),
    .we_i    (sh_we),
    .waddr_i (sh_waddr),
    .wdata_i (sh_wdata),
    .re_i    (sh_re),
    .raddr_i (sh_raddr),
    .rdata_o (sh_rdata)
  );

  // Atomic updates: the lane ALU applied to the old word (shared: just read; global: the
  // read response) and the operand.
  /* verilator lint_off UNUSED */
  logic [31:0] sh_atom_unused_res, gl_atom_unused_res;
  logic        sh_atom_unused_cmp, gl_atom_unused_cmp;
  /* verilator lint_on UNUSED */
  logic [31:0] shared_atom_new, global_atom_new;
  simt_sm_lane_alu u_sh_atom (
    .op_i     (inst_i.op),
    .sub_i    (inst_i.sub),
    .a_i      (sh_rdata),
    .b_i      (mdata_q),
    .result_o (sh_atom_unused_res),
    .cmp_o    (sh_atom_unused_cmp),
    .atom_o   (shared_atom_new)
  );
  simt_sm_lane_alu u_gl_atom (
    .op_i     (inst_i.op),
    .sub_i    (inst_i.sub),
    .a_i      (mem_rsp_rdata_i),
    .b_i      (mdata_q),
    .result_o (gl_atom_unused_res),
    .cmp_o    (gl_atom_unused_cmp),
    .atom_o   (global_atom_new)
  );

  // ---- Sequencing -----------------------------------------------------------------------------
  logic lane_done;  // a lane finished: the next one, or done
  always_comb begin
    state_d   = state_q;
    mrem_d    = mrem_q;
    mlane_d   = mlane_q;
    melem_d   = melem_q;
    maddr_d   = maddr_q;
    mdata_d   = mdata_q;
    mnew_d    = mnew_q;
    lane_done = 1'b0;
    fault_o   = '0;

    sh_we           = sh_clr_i;
    sh_re           = 1'b0;
    sh_waddr        = sh_clr_i ? sh_clr_addr_i : sh_index;
    sh_raddr        = sh_index;
    sh_wdata        = '0;
    rf_re_o         = 1'b0;
    rf_reg_o        = inst_i.rb + {3'd0, melem_q};
    rf_we_o         = '0;
    rf_waddr_o      = {warp_i, inst_i.rd};
    rf_wdata_o      = '0;
    mem_req_valid_o = 1'b0;
    mem_req_we_o    = 1'b0;
    mem_req_addr_o  = maddr_q;
    mem_req_wdata_o = mdata_q;
    evt_stall_o     = 1'b0;

    unique case (state_q)
      simt_sm_pkg::LsIdle: begin
        if (start_i) begin
          mrem_d  = exec_i;
          mlane_d = simt_sm_pkg::lowest(exec_i);
          melem_d = '0;
          state_d = simt_sm_pkg::LsLane;
        end
      end
      simt_sm_pkg::LsLane: begin
        maddr_d = lane_addr;
        mdata_d = lane_b;
        rf_re_o = 1'b1;  // v4 store: this element's data register
        if (lane_misaligned || lane_out_of_range) begin
          fault_o.cause  = cls.shared ? (lane_misaligned ? simt_pkg::FltSharedAlign
                                                         : simt_pkg::FltSharedRange)
                                      : (lane_misaligned ? simt_pkg::FltGlobalAlign
                                                         : simt_pkg::FltGlobalRange);
          fault_o.lane_v = 1'b1;
          fault_o.lane   = mlane_q;
          fault_o.addr   = lane_addr;
          state_d        = simt_sm_pkg::LsIdle;
        end else if (cls.v4 && cls.store) begin
          state_d = simt_sm_pkg::LsData;
        end else if (cls.shared) begin
          sh_re   = 1'b1;
          state_d = simt_sm_pkg::LsShData;
        end else begin
          mem_req_valid_o = 1'b1;
          mem_req_we_o    = cls.store;
          mem_req_addr_o  = lane_addr;
          mem_req_wdata_o = lane_b;
          evt_stall_o     = !mem_req_ready_i;
          state_d         = mem_req_ready_i ? simt_sm_pkg::LsRsp : simt_sm_pkg::LsReq;
        end
      end
      simt_sm_pkg::LsData: begin
        mdata_d = rf_rdata_i[mlane_q*32 +: 32];
        state_d = simt_sm_pkg::LsReq;
      end
      simt_sm_pkg::LsReq: begin
        mem_req_valid_o = 1'b1;
        mem_req_we_o    = cls.store;
        evt_stall_o     = !mem_req_ready_i;
        if (mem_req_ready_i) state_d = simt_sm_pkg::LsRsp;
      end
      simt_sm_pkg::LsRsp: begin
        evt_stall_o = !mem_rsp_valid_i;
        if (mem_rsp_valid_i) begin
          if (!cls.store) begin
            rf_we_o    = 32'd1 << mlane_q;
            rf_waddr_o = {warp_i, inst_i.rd + {3'd0, melem_q}};
            rf_wdata_o = {32{mem_rsp_rdata_i}};
          end
          if (cls.atom) begin
            // Keep the old word; the new one comes from it and the operand (rb).
            mdata_d = mem_rsp_rdata_i;
            mnew_d  = global_atom_new;
            state_d = simt_sm_pkg::LsAtomReq;
          end else if (cls.v4 && melem_q != 2'd3) begin
            melem_d = melem_q + 2'd1;
            state_d = simt_sm_pkg::LsLane;
          end else begin
            lane_done = 1'b1;
          end
        end
      end
      simt_sm_pkg::LsAtomReq: begin
        mem_req_valid_o = 1'b1;
        mem_req_we_o    = 1'b1;
        mem_req_wdata_o = cls.cas ? ((mdata_q == lane_b) ? lane_c : mdata_q) : mnew_q;
        evt_stall_o     = !mem_req_ready_i;
        if (mem_req_ready_i) state_d = simt_sm_pkg::LsAtomRsp;
      end
      simt_sm_pkg::LsAtomRsp: begin
        evt_stall_o = !mem_rsp_valid_i;
        if (mem_rsp_valid_i) lane_done = 1'b1;
      end
      simt_sm_pkg::LsShData: begin
        // sh_rdata is the old word; mdata_q the store data or atomic operand (rb).
        sh_waddr = ShAW'(cta_i) * ShAW'(SharedWords) + ShAW'(maddr_q[31:2]);
        if (cls.store) begin
          sh_we    = 1'b1;
          sh_wdata = mdata_q;
        end else begin
          rf_we_o    = 32'd1 << mlane_q;
          rf_wdata_o = {32{sh_rdata}};
          if (cls.atom) begin
            sh_we    = 1'b1;
            sh_wdata = cls.cas ? ((sh_rdata == lane_b) ? lane_c : sh_rdata) : shared_atom_new;
          end
        end
        lane_done = 1'b1;
      end
      default: state_d = simt_sm_pkg::LsIdle;
    endcase

    // The next lane (ascending), or done.
    if (lane_done) begin
      mrem_d  = mrem_q & ~(32'd1 << mlane_q);
      mlane_d = simt_sm_pkg::lowest(mrem_d);
      melem_d = '0;
      state_d = (mrem_d == '0) ? simt_sm_pkg::LsIdle : simt_sm_pkg::LsLane;
    end
  end

  assign busy_o = state_q != simt_sm_pkg::LsIdle;
  assign done_o = lane_done && mrem_d == '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= simt_sm_pkg::LsIdle;
      mrem_q  <= '0;
      mlane_q <= '0;
      melem_q <= '0;
      maddr_q <= '0;
      mdata_q <= '0;
      mnew_q  <= '0;
    end else begin
      state_q <= state_d;
      mrem_q  <= mrem_d;
      mlane_q <= mlane_d;
      melem_q <= melem_d;
      maddr_q <= maddr_d;
      mdata_q <= mdata_d;
      mnew_q  <= mnew_d;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (state_q == simt_sm_pkg::LsLane) assert (mrem_q[mlane_q] && exec_i[mlane_q])
        else $error("sm: memory access by a lane that does not execute");
      assert (!(start_i && (state_q != simt_sm_pkg::LsIdle || exec_i == '0)))
        else $error("sm lsu: start while busy or without executing lanes");
      assert (!(sh_clr_i && state_q != simt_sm_pkg::LsIdle))
        else $error("sm lsu: shared-memory clear during an access");
      assert (!(mem_req_valid_o && state_q != simt_sm_pkg::LsLane &&
                state_q != simt_sm_pkg::LsReq && state_q != simt_sm_pkg::LsAtomReq))
        else $error("sm: memory request outside the load/store states");
    end
  end
`endif

endmodule
