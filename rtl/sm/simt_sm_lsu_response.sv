// Load/store unit, responses: the memory's answers into the register file (docs/blocks/sm.md,
// "The load/store unit").
//
// A response names its request by id; the in-flight table (simt_sm_lsu_inflight) says what
// that request asked for (lanes_i ... line_i, looked up at mem_rsp_id_i). A response that
// writes registers waits while another unit has the register file's write port (rf_busy_i)
// or the shared-memory unit writes (sh_we_i); a store's answer is always taken. A v4 load's
// line is written one element a cycle (rd + element on its lanes) and taken with its last.
// With the drain (Drain: 32 lanes with the sender), a v4 load's line whose four registers
// were written since launch (rf_used_i, at rf_uaddr_o) and whose lanes have nothing left in
// the drain goes there instead: taken in one cycle even while another unit writes, written
// beside the lines before it, its id given back with its last element; any other response
// that writes waits until the drain is empty; a store's is always taken. The ids go back to
// the in-flight table: a response's through ret_o, the drain's lines as a set (ret_ids_o).
//
// The register-file write of the load/store unit is chosen here: the shared-memory unit's
// (the instruction in the unit), a response's (late: any warp) or the drain's (an address a
// lane, rf_split_o). Zero data without a write: the core ORs its units' write data.
//
// The first response with an error is kept (err_o with its fault: the request's lowest lane,
// the word's address, the instruction's warp and PC); the unit reports it once nothing is in
// flight.
module simt_sm_lsu_response #(
  parameter int  NumLanes  = 32,
  parameter int  NumWarps  = 8,
  parameter int  IdW       = 4,
  parameter int  LineBytes = 64,
  parameter bit  Drain     = 1'b1,  // only at 32 lanes
  parameter int  AddrW     = 22,
  localparam int WarpW     = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  localparam int RfAW      = WarpW + 5,
  localparam int NumIds    = 1 << IdW,
  localparam int OffW      = $clog2(LineBytes),
  localparam int LaneW     = $clog2(NumLanes)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  // The memory's responses (docs/blocks/mem_port.md).
  input  logic                     mem_rsp_valid_i,
  output logic                     mem_rsp_ready_o,
  input  logic [IdW-1:0]           mem_rsp_id_i,
  input  logic                     mem_rsp_err_i,
  input  logic [LineBytes*8-1:0]   mem_rsp_rdata_i,

  // The in-flight table: the ids outstanding, the response's request, an id given back.
  input  logic [NumIds-1:0]        out_i,
  input  logic [31:0]              lanes_i,
  input  logic                     writes_i,   // a load's (or an atomic's): writes rd
  input  logic                     v4_i,
  input  logic [WarpW-1:0]         warp_i,
  input  logic [4:0]               reg_i,
  input  logic [AddrW-1:0]         pc_i,
  input  logic [32*(OffW-2)-1:0]   words_i,    // each thread's word in its line
  input  logic [31:OffW]           line_i,
  output logic                     fire_o,     // a response taken
  output logic                     ret_o,
  output logic [IdW-1:0]           ret_id_o,
  output logic [NumIds-1:0]        ret_ids_o,  // the drain's lines done this cycle

  // The shared-memory unit's write (on the lanes of one group).
  input  logic [31:0]              sh_we_i,
  input  logic                     sh_wr_i,        // ... some (sh_we_i != 0, early)
  input  logic [RfAW-1:0]          sh_waddr_i,
  input  logic [NumLanes*32-1:0]   sh_wdata_i,

  // The register file's write port.
  input  logic                     rf_busy_i,      // another unit writes
  output logic [RfAW-1:0]          rf_uaddr_o,     // a response's {warp, rd}: are its four
  input  logic [3:0]               rf_used_i,      // ... entries written since launch
  output logic [31:0]              rf_we_o,
  output logic                     rf_wr_o,        // ... some (rf_we_o != 0, early)
  output logic [RfAW-1:0]          rf_waddr_o,
  output logic                     rf_split_o,     // each lane at its own (the drain)
  output logic [NumLanes*RfAW-1:0] rf_waddr_lane_o,
  output logic [NumLanes*32-1:0]   rf_wdata_o,     // on the lanes
  output logic                     rf_late_o,      // the write is a global response's
  output logic                     wb_wait_o,      // a response waits for the write port

  // The first error response.
  output logic                     err_o,
  output simt_sm_pkg::fault_t      err_fault_o,
  output logic [WarpW-1:0]         err_warp_o,
  output logic [AddrW-1:0]         err_pc_o
);

  // ---- Taking a response ---------------------------------------------------------------------
  logic             port_taken, rsp_wr, rsp_v4ld, rsp_out;
  logic [1:0]       wb_elem_d, wb_elem_q;  // a v4 load's element written this cycle
  logic             dr_ok, dr_held, dr_take, dr_busy;
  logic [31:0]      dr_pend;
  assign port_taken = rf_busy_i || sh_wr_i;
  assign rsp_out    = mem_rsp_valid_i && out_i[mem_rsp_id_i];
  assign rsp_v4ld   = v4_i && writes_i && !mem_rsp_err_i;
  // (Not a line the one-element-a-cycle path has begun: its first write may have just made
  // the registers written since launch.)
  assign dr_ok      = Drain && rsp_v4ld && rf_used_i == '1 && (lanes_i & dr_pend) == '0 &&
                      wb_elem_q == 2'd0;
  assign dr_take    = rsp_out && dr_ok;
  assign dr_held    = Drain && !dr_ok && writes_i && dr_busy;
  assign rsp_wr     = rsp_out && writes_i && !port_taken && !mem_rsp_err_i && !dr_ok &&
                      !dr_held;
  assign mem_rsp_ready_o = !(writes_i && port_taken && !dr_ok) && !dr_held &&
                           !(rsp_v4ld && !dr_ok && wb_elem_q != 2'd3);
  // The core stops issuing (wb_wait_o) while a response that writes waits for the port, or
  // the drain has waited for it three cycles running: the drain buffers the lines that come
  // meanwhile, so an instruction's write need not hold the issue (stream_v4 at 100 / 64:
  // two issue cycles lost for every ALU write while the drain held a line), yet warps that
  // issue every cycle cannot starve it.
  logic [1:0] dr_denied_d, dr_denied_q;  // cycles running the drain held a line without the port
  assign dr_denied_d = !(dr_busy && port_taken) ? 2'd0 :
                       (dr_denied_q == 2'd3)    ? 2'd3 : dr_denied_q + 2'd1;
  assign wb_wait_o  = (rsp_out && writes_i && port_taken && !mem_rsp_ready_o) ||
                      (dr_busy && port_taken && dr_denied_q == 2'd3);
  assign wb_elem_d  = (rsp_wr && rsp_v4ld) ? wb_elem_q + 2'd1 : wb_elem_q;
  assign rf_uaddr_o = {warp_i, reg_i};
  assign fire_o     = rsp_out && mem_rsp_ready_o;
  // An id goes back with its response, or (a line in the drain) with its last element.
  assign ret_o      = fire_o && !dr_take;
  assign ret_id_o   = mem_rsp_id_i;

  // A response's words for its lanes, each from its place in the line (the lanes' word
  // offsets as taken at the start, v4: the element written this cycle), on the lanes of its
  // request's group (its lowest thread's).
  logic [4:0]             err_lane;  // an error's lane: the request's lowest
  logic [4:0]             rsp_first;
  logic [OffW-3:0]        rsp_word [NumLanes];
  logic [NumLanes*32-1:0] rsp_words;
  assign err_lane  = simt_sm_pkg::lowest(lanes_i);
  assign rsp_first = err_lane & 5'(32 - NumLanes);
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      logic [OffW-3:0] at;
      at = '0;
      for (int g = 0; g < 32 / NumLanes; g++) begin
        if (rsp_first == 5'(g * NumLanes)) at = words_i[(g*NumLanes + l)*(OffW-2) +: OffW-2];
      end
      rsp_word[l] = (OffW-2)'(simt_sm_pkg::line_word(30'(at), v4_i, wb_elem_q));
      rsp_words[l*32 +: 32] = mem_rsp_rdata_i[rsp_word[l]*32 +: 32];
    end
  end

  // ---- The first error ----------------------------------------------------------------------
  logic                err_d, err_q;
  simt_sm_pkg::fault_t err_fault_d, err_fault_q;
  logic [WarpW-1:0]    err_warp_d, err_warp_q;
  logic [AddrW-1:0]    err_pc_d, err_pc_q;
  always_comb begin
    err_d       = err_q;
    err_fault_d = err_fault_q;
    err_warp_d  = err_warp_q;
    err_pc_d    = err_pc_q;
    if (fire_o && mem_rsp_err_i && !err_q) begin
      err_d              = 1'b1;
      err_fault_d.cause  = simt_pkg::FltMemError;
      err_fault_d.lane_v = 1'b1;
      err_fault_d.lane   = err_lane;
      err_fault_d.addr   = {line_i, rsp_word[err_lane[LaneW-1:0]], 2'b00};
      err_warp_d         = warp_i;
      err_pc_d           = pc_i;
    end
  end
  assign err_o       = err_q;
  assign err_fault_o = err_fault_q;
  assign err_warp_o  = err_warp_q;
  assign err_pc_o    = err_pc_q;

  // ---- The register-file write --------------------------------------------------------------
  logic [31:0]              dr_we;
  logic [NumLanes*RfAW-1:0] dr_waddr;  // (the drain's 32 lanes: only with NumLanes 32)
  logic [NumLanes*32-1:0]   dr_wdata;
  always_comb begin
    rf_we_o         = sh_we_i;
    rf_waddr_o      = sh_waddr_i;
    rf_split_o      = 1'b0;
    rf_waddr_lane_o = '0;
    rf_wdata_o      = sh_wr_i ? sh_wdata_i : '0;
    rf_late_o       = 1'b0;
    if (rsp_wr) begin
      rf_we_o    = lanes_i;
      rf_waddr_o = {warp_i, reg_i + {3'd0, wb_elem_q}};
      rf_wdata_o = rsp_words;
      rf_late_o  = 1'b1;
    end
    if (dr_we != '0) begin
      rf_we_o         = dr_we;
      rf_split_o      = 1'b1;
      rf_waddr_lane_o = dr_waddr;
      rf_wdata_o      = dr_wdata;
      rf_late_o       = 1'b1;
    end
  end

  // Whether the unit writes, from the writers' early terms rather than the OR of the enables
  // (the core picks the port's address by it): the drain writes while it holds a line or takes
  // one, whenever the port is the unit's (a response's lanes are never none: asserted).
  assign rf_wr_o = sh_wr_i || rsp_wr || (Drain && !port_taken && (dr_busy || dr_take));

  if (Drain) begin : g_drain
    simt_sm_lsu_drain #(
      .RfAW      (RfAW),
      .IdW       (IdW),
      .LineBytes (LineBytes)
    ) u_drain (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .go_i         (!port_taken),
      .take_i       (dr_take),
      .take_id_i    (mem_rsp_id_i),
      .take_lanes_i (lanes_i),
      .take_addr_i  ({warp_i, reg_i}),
      .take_words_i (words_i),
      .take_data_i  (mem_rsp_rdata_i),
      .pend_o       (dr_pend),
      .busy_o       (dr_busy),
      .we_o         (dr_we),
      .waddr_o      (dr_waddr),
      .wdata_o      (dr_wdata),
      .ret_o        (ret_ids_o)
    );
  end else begin : g_no_drain
    assign dr_pend   = '0;
    assign dr_busy   = 1'b0;
    assign dr_we     = '0;
    assign dr_waddr  = '0;
    assign dr_wdata  = '0;
    assign ret_ids_o = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wb_elem_q   <= '0;
      dr_denied_q <= '0;
      err_q       <= 1'b0;
      err_fault_q <= '0;
      err_warp_q  <= '0;
      err_pc_q    <= '0;
    end else begin
      wb_elem_q   <= wb_elem_d;
      dr_denied_q <= dr_denied_d;
      err_q       <= err_d;
      err_fault_q <= err_fault_d;
      err_warp_q  <= err_warp_d;
      err_pc_q    <= err_pc_d;
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(mem_rsp_valid_i && !out_i[mem_rsp_id_i]))
        else $error("sm lsu: a memory response to no outstanding request");
      assert (!(rf_late_o && port_taken))
        else $error("sm lsu: a response's register write while the port is taken");
      // The write puts a response's words on the lanes of one group.
      assert (!(fire_o && simt_sm_pkg::later_groups(lanes_i, NumLanes) != '0))
        else $error("sm lsu: a response's threads in two groups");
      // The drain: no other write beside its own; a response's id is not among its lines'.
      assert (!(ret_o && ret_ids_o[ret_id_o]))
        else $error("sm lsu: an id given back by a response and the drain");
      assert (!(dr_busy && (rsp_wr || (sh_we_i != '0 && dr_we != '0))))
        else $error("sm lsu: a register write beside the drain's");
      assert (sh_wr_i == (sh_we_i != '0) && rf_wr_o == (rf_we_o != '0))
        else $error("sm lsu: the write flags %b %b disagree with the writes %h %h", sh_wr_i,
                    rf_wr_o, sh_we_i, rf_we_o);
    end
  end
`endif

endmodule
