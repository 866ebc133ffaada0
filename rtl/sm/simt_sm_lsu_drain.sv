// Load/store unit, v4 drain (32 lanes): a v4 load's lines written to the register file side
// by side (docs/blocks/sm.md, "The v4 drain").
//
// A v4 load's line holds four elements for each of its lanes (a 64-byte line: four lanes);
// the register file takes one register a lane a cycle, so one line alone needs four cycles
// of the write port while 28 lanes stay idle. The drain takes a line in one cycle
// (take_i: its lanes must have nothing left to write, pend_o), writes element 0 on its lanes
// then and keeps elements 1-3 of each lane, written one a cycle with the next lines' lanes
// beside them: each lane has its own register address ({warp, register}, we_o with
// waddr_o), so the port writes up to one line a cycle. The lines advance together, one
// element each cycle the port is the unit's (go_i): a line taken in cycle t writes its last
// element in the third cycle of go_i after t, when its id is given back (ret_o: the
// in-flight table frees it then, and with it the scoreboard's registers). Lines of different
// instructions and warps may be in the drain together.
//
// The caller takes a line only when the four registers' entries were written since their
// warp's launch (the register file's first write of an entry writes every lane, so it needs
// the one address a cycle: simt_sm_decode), and lets no other register write through while
// the drain holds a line.
module simt_sm_lsu_drain #(
  parameter int  RfAW      = 8,
  parameter int  IdW       = 6,
  parameter int  LineBytes = 64,
  localparam int WordW     = $clog2(LineBytes) - 2,
  localparam int NumQuads  = LineBytes / 16
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   go_i,          // the write port is the unit's this cycle
  input  logic                   take_i,        // a v4 load's line comes in (needs go_i)
  input  logic [IdW-1:0]         take_id_i,
  input  logic [31:0]            take_lanes_i,
  input  logic [RfAW-1:0]        take_addr_i,   // {warp, rd}
  input  logic [32*WordW-1:0]    take_words_i,  // each lane's element 0 in the line
  input  logic [LineBytes*8-1:0] take_data_i,
  output logic [31:0]            pend_o,        // lanes with elements still to write
  output logic                   busy_o,        // a line is in the drain
  output logic [31:0]            we_o,
  output logic [32*RfAW-1:0]     waddr_o,       // lane l's register: [l*RfAW +: RfAW]
  output logic [32*32-1:0]       wdata_o,
  output logic                   ret_o,         // a line's last element is written now
  output logic [IdW-1:0]         ret_id_o
);

  // Per lane l: elements left (0-3, [l*2 +: 2]), the next register ([l*RfAW +: RfAW]), the
  // elements still to write ([l*96 +: 96]); flat vectors (Yosys 0.23 takes whole unpacked
  // arrays in no assignment, and no packed arrays of more than one dimension).
  logic [32*2-1:0]    left_d, left_q;
  logic [32*RfAW-1:0] addr_d, addr_q;
  logic [32*96-1:0]   data_d, data_q;
  // Per line in the drain, by age (stage s: taken s + 1 cycles of go_i ago): its id.
  logic [2:0]         vld_d, vld_q;
  logic [3*IdW-1:0]   id_d, id_q;

  // The register after a: the next of its warp (v4 registers wrap from r31 to r0, as ISA.md).
  function automatic logic [RfAW-1:0] next_reg(logic [RfAW-1:0] a);
    next_reg = {a[RfAW-1:5], a[4:0] + 5'd1};
  endfunction

  always_comb begin
    we_o    = '0;
    waddr_o = '0;
    wdata_o = '0;
    pend_o  = '0;
    for (int l = 0; l < 32; l++) begin
      logic [127:0]     elems;  // the taken line's four elements of lane l: its quad
      logic [WordW-1:0] word;
      word  = take_words_i[l*WordW +: WordW];
      elems = '0;
      for (int q = 0; q < NumQuads; q++) begin
        if (32'(word) / 4 == q) elems = take_data_i[q*128 +: 128];
      end
      left_d[l*2 +: 2]       = left_q[l*2 +: 2];
      addr_d[l*RfAW +: RfAW] = addr_q[l*RfAW +: RfAW];
      data_d[l*96 +: 96]     = data_q[l*96 +: 96];
      pend_o[l] = left_q[l*2 +: 2] != 2'd0;
      if (go_i && left_q[l*2 +: 2] != 2'd0) begin
        we_o[l]                 = 1'b1;
        waddr_o[l*RfAW +: RfAW] = addr_q[l*RfAW +: RfAW];
        wdata_o[l*32 +: 32]     = data_q[l*96 +: 32];
        left_d[l*2 +: 2]        = left_q[l*2 +: 2] - 2'd1;
        addr_d[l*RfAW +: RfAW]  = next_reg(addr_q[l*RfAW +: RfAW]);
        data_d[l*96 +: 96]      = {32'd0, data_q[l*96 + 32 +: 64]};
      end
      if (take_i && take_lanes_i[l]) begin
        we_o[l]                 = 1'b1;
        waddr_o[l*RfAW +: RfAW] = take_addr_i;
        wdata_o[l*32 +: 32]     = elems[31:0];
        left_d[l*2 +: 2]        = 2'd3;
        addr_d[l*RfAW +: RfAW]  = next_reg(take_addr_i);
        data_d[l*96 +: 96]      = elems[127:32];
      end
    end
  end

  always_comb begin
    vld_d = vld_q;
    id_d  = id_q;
    if (go_i) begin
      vld_d = {vld_q[1:0], take_i};
      id_d  = {id_q[0 +: 2*IdW], take_id_i};
    end
  end
  assign busy_o   = vld_q != '0;
  assign ret_o    = go_i && vld_q[2];
  assign ret_id_o = id_q[2*IdW +: IdW];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      vld_q  <= '0;
      left_q <= '0;
    end else begin
      vld_q  <= vld_d;
      left_q <= left_d;
    end
  end
  // Contents: read only while their lane or stage holds a line.
  always_ff @(posedge clk_i) begin
    addr_q <= addr_d;
    data_q <= data_d;
    id_q   <= id_d;
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(take_i && (!go_i || take_lanes_i == '0 || (take_lanes_i & pend_o) != '0)))
        else $error("sm lsu drain: a line taken without the port, lanes, or onto busy lanes");
      // A stage holds a line exactly when some lane has its count of elements left.
      for (int s = 0; s < 3; s++) begin
        logic any;
        any = 1'b0;
        for (int l = 0; l < 32; l++) any |= left_q[l*2 +: 2] == 2'(3 - s);
        assert (vld_q[s] == any)
          else $error("sm lsu drain: stage %0d valid %0d, lanes with %0d left %0d", s,
                      vld_q[s], 3 - s, any);
      end
    end
  end
`endif

endmodule
